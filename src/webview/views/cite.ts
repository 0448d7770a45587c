// A post cited in the panel: author and title (in <cite>), from the one catalogue in src/shared/posts.ts.
import { html, type TemplateResult } from 'lit';
import { getPost, type PostId } from '../../shared/posts';

export function citeHtml(id: PostId): TemplateResult {
  const p = getPost(id);
  return html`<span class="post-cite" data-post=${p.id}>${p.author}, <cite>${p.title}</cite> (${p.year ? `${p.year}, ` : ''}${p.blog})</span>`;
}

export function citeListHtml(ids: readonly PostId[]): TemplateResult {
  return html`${ids.map((id, i) => html`${i ? '; ' : ''}${citeHtml(id)}`)}`;
}

// The plan of the Presets form as typed, asked of the host once typing pauses: one question per pause, none while
// disconnected or while the form does not check.
import type { PanelState } from '../shared/protocol';
import { checkPresetForm, presetPayload, type PresetFormState } from './model/presetForm';
import type { PanelQuestions } from './questions';

const PAUSE_MS = 300;

export class PresetPreview {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly app: {
      readonly presetForm: PresetFormState | null;
      readonly state: PanelState | null;
      readonly questions: PanelQuestions;
    },
  ) {}

  get pending(): boolean {
    return this.timer !== null;
  }

  schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const { presetForm: f, state } = this.app;
      if (!f || !state || state.connection.status !== 'connected') return;
      if (!checkPresetForm(f, state.presets).valid) return;
      this.app.questions.previewPreset(presetPayload(f));
    }, PAUSE_MS);
  }
}

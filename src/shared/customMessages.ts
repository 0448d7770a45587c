// The custom workload feature's message (src/host/features/custom): the user's T-SQL run in their database.
import { z } from 'zod';
import { fromWebview } from './messages';
import { customFormSchema } from './customForm';
import { repeatSchema, text } from './messageSchemas';

/** Webview -> host. */
export const CustomToHost = {
  /** Run the Custom workload form: the user's T-SQL in their database, nothing deployed. */
  customRun: fromWebview(
    'customRun',
    // repeat: repetitions of each thread count (absent: 1).
    z.object({ form: customFormSchema, title: text(200).optional(), repeat: repeatSchema.optional() }),
  ),
} as const;

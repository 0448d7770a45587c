// The scenario entry of a custom workload: nothing to deploy or clean up (the product never creates or drops anything
// in the user's database), no parameters of its own, and a call as the unit of throughput.
import type { ScenarioManifest } from '../../shared/params';

export const CUSTOM_SCENARIO_ID = 'custom';

export const CUSTOM_MANIFEST: Required<Pick<ScenarioManifest, 'unit' | 'deploy' | 'cleanup' | 'workload' | 'progress'>> & ScenarioManifest =
  {
    id: CUSTOM_SCENARIO_ID,
    name: 'Custom workload',
    description: 'Your own T-SQL, run by N sessions in the database you name; nothing is deployed there.',
    posts: [],
    features: [],
    unit: 'calls',
    parameters: [],
    deploy: [],
    cleanup: [],
    workload: { serverLoop: { procedure: '', args: [] }, clientLoop: { procedure: '', args: [] }, rowsPerCall: 1 },
    progress: { tables: [], operations: [] },
  };

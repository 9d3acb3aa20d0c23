/** Workflow code: the entry a harness worker bundles, every workflow it serves. */
export { driveRunWorkflow, driveScenarioWorkflow } from './drive-workflow.ts';
export { judgeRunWorkflow } from './judging-workflow.ts';

/**
 * Scenarios: the schema of a scenario file, its loader with one-line errors, the built-in
 * scenarios of `scenarios/`, the JSON Schema for editors, and authoring (new, validate).
 */
export { type NewScenarioOptions, newScenario, type ValidationResult, validateScenarios } from './authoring.ts';
export { CHAOS_ACTIONS, NETWORK_FAULTS, NETWORK_LINKS } from './chaos-step-rules.ts';
export { SCENARIO_JSON_SCHEMA_FILE, scenarioJsonSchemaText } from './json-schema.ts';
export { loadScenarioFile, parseScenario } from './load-scenario.ts';
export { mockOptionsOf } from './mock-options.ts';
export {
  listScenarios,
  resolveScenario,
  SCENARIOS_DIR,
  type ScenarioListing,
  scenarioFile,
  scenarioFiles,
  scenarioName,
} from './registry.ts';
export { ScenarioError, type ScenarioErrorLocation } from './scenario-error.ts';
export * from './scenario-schema.ts';
export { type Ramp, type RampInput, type RampStage, rampOf, type SoakThresholds } from './soak-schema.ts';

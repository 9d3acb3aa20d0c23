export {
  FaultPicker,
  type FaultRequest,
  type PickedFault,
} from './fault-picker.ts';
export {
  type CardSection,
  type FaultKind,
  type FaultProfile,
  type FaultRule,
  type FaultSpec,
  type FaultWhen,
  faultProfileSchema,
  parseFaultProfile,
} from './fault-profile.ts';
export { type Answer, type ErrorFault, type ErrorWording, type Outcome, respond } from './fault-response.ts';

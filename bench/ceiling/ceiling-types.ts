/** The ceiling workflow's input and activity, shared by the workflow and its worker. */
export interface CeilingInput {
  payloadBytes: number;
  activities: number;
}

export interface CeilingActivities {
  /** Takes the payload and answers with its length: the bytes go one way, as a model request does. */
  carry(payload: string): Promise<number>;
}

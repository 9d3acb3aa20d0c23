import type { SizeUnit } from '../context/bytes.ts';

/** What the activities need from their host: where the model and the sandbox answer. */
export interface ActivitiesConfig {
  /** OpenAI-compatible base URL; requests go to `{modelBaseUrl}/chat/completions`. */
  modelBaseUrl: string;
  /** Tool calls go to `{sandboxBaseUrl}/tools/{name}`. */
  sandboxBaseUrl: string;
  /** Sent as `Authorization: Bearer ...` to the model when set. */
  apiKey?: string;
  /** Defaults to the global fetch, looked up per call so that MSW installed later intercepts it. */
  fetch?: typeof fetch;
  /** Sent with every request, to the model and the sandbox (longrun's workers name their binary: BINARY_HEADER). */
  headers?: Record<string, string>;
  /** Per-request HTTP timeouts; each stays under its activity's start-to-close timeout. */
  timeoutsMs?: Partial<HttpTimeouts>;
  /**
   * What the compaction digest's message windows count. Default `'utf8-bytes'`, the contract;
   * `'utf16-units'` is the `digest-in-units` control's slip (`activityControls` of its binary).
   */
  digestWindowUnit?: SizeUnit;
  /**
   * What the compaction request carries of the dialog's screenshots. Default `'counted'`: the
   * digest counts them, the spec; `'sent'` also attaches them as image parts, the
   * `compaction-sees-screenshots` control's slip.
   */
  compactionScreenshots?: 'counted' | 'sent';
  /**
   * What the digest leaves out of the history it is given. Default nothing, the spec;
   * `'system-messages'` (the earlier card among them) is the `digest-drops-system` control's
   * slip, `'assistant-texts'` the `digest-drops-texts` control's, `'tool-results'` the
   * `digest-drops-tool-results` control's.
   */
  digestLeavesOut?: 'system-messages' | 'assistant-texts' | 'tool-results';
  /**
   * The model compaction calls. Default `'compaction'`: the settings' compaction model,
   * then the judge's, then the env model, the spec; `'agent'` is the `compaction-on-agent-model`
   * control's slip.
   */
  compactionModelRole?: 'compaction' | 'agent';
  /**
   * What the card's size limit counts. Default `'utf8-bytes'`, the contract; `'utf16-units'` is
   * the `card-in-units` control's slip.
   */
  cardSizeUnit?: SizeUnit;
}

export interface HttpTimeouts {
  model: number;
  compaction: number;
  tool: number;
}

export const DEFAULT_HTTP_TIMEOUTS: HttpTimeouts = {
  model: 100_000,
  compaction: 20_000,
  tool: 60_000,
};

export function checkConfig(config: ActivitiesConfig): void {
  for (const field of ['modelBaseUrl', 'sandboxBaseUrl'] as const) {
    const value = config[field];
    if (typeof value !== 'string' || !URL.canParse(value)) {
      throw new Error(`createActivities: ${field} must be an absolute URL, got ${JSON.stringify(value)}`);
    }
  }
  for (const [field, value] of Object.entries(config.timeoutsMs ?? {})) {
    if (!Number.isSafeInteger(value) || (value as number) <= 0) {
      throw new Error(`createActivities: timeoutsMs.${field} must be a positive integer, got ${JSON.stringify(value)}`);
    }
  }
}

/** `{base}/{path}` with exactly one slash between them. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

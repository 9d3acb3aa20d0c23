import { describe, expect, it } from 'vitest';
import { DigestLedger } from './digest-ledger.ts';

const CARD_1 = '## Task\nfix the login\n## Next step\n- read src/auth/session.ts and run test 4411';
const CARD_2 = '## Decisions\n- hash 9f8e7d6c\n## Next step\n- patch src/auth/token.ts';
const FRAME = 'This is a record of displaced work.';

function agentDigest(card: string | null): string {
  return ['the user request', ...(card ? [`${FRAME}\n\n${card}`] : []), 'an assistant text'].join('\n');
}

describe('DigestLedger', () => {
  it('asks nothing of a run that holds no card', () => {
    const ledger = new DigestLedger();
    ledger.agentAsked('run-1', 'v1', 3, agentDigest(null));
    expect(ledger.compactionProblem('run-1', 'v1', 'a digest with no card')).toBeNull();
  });

  it('asks the next compaction to show the card the run came back with', () => {
    const ledger = new DigestLedger();
    ledger.written('run-1', 'v1', CARD_1);
    ledger.agentAsked('run-1', 'v1', 18, agentDigest(CARD_1));
    expect(ledger.compactionProblem('run-1', 'v1', `[2] system\n${FRAME}\n\n${CARD_1}\n[3] assistant`)).toBeNull();
    const problem = ledger.compactionProblem('run-1', 'v1', '[1] user\nthe user request\n[3] assistant\nan assistant text');
    expect(problem).toMatch(/^the digest leaves out the state card the run holds \(sent with turn 18\)/);
    expect(problem).toContain(`its last ${Buffer.byteLength(CARD_1)} bytes ("## Task\\nfix the login`);
  });

  it('asks nothing for a card the kernel refused: the run still holds the earlier one', () => {
    const ledger = new DigestLedger();
    ledger.written('run-1', 'v1', CARD_1);
    ledger.agentAsked('run-1', 'v1', 18, agentDigest(CARD_1));
    ledger.written('run-1', 'v1', CARD_2);
    ledger.agentAsked('run-1', 'v1', 30, agentDigest(CARD_1));
    expect(ledger.compactionProblem('run-1', 'v1', CARD_2)).toMatch(/sent with turn 30/);
    expect(ledger.compactionProblem('run-1', 'v1', CARD_1)).toBeNull();
  });

  it('follows the newest card the run came back with', () => {
    const ledger = new DigestLedger();
    ledger.written('run-1', 'v1', CARD_1);
    ledger.agentAsked('run-1', 'v1', 18, agentDigest(CARD_1));
    ledger.written('run-1', 'v1', CARD_2);
    ledger.agentAsked('run-1', 'v1', 30, agentDigest(CARD_2));
    expect(ledger.compactionProblem('run-1', 'v1', CARD_1)).toContain('("## Decisions\\n- hash 9f8e7d6c');
    expect(ledger.compactionProblem('run-1', 'v1', CARD_2)).toBeNull();
  });

  it("binds a long card by its end, which the digest's tail window of the card shows", () => {
    const ledger = new DigestLedger();
    const card = `${'## Task\n'.padEnd(2_000, 'x')}\n## Next step\n- ${'界'.repeat(200)}`;
    ledger.written('run-1', 'v1', card);
    ledger.agentAsked('run-1', 'v1', 18, agentDigest(card));
    const tail = card.slice(-170);
    expect(ledger.compactionProblem('run-1', 'v1', `${card.slice(0, 1_000)} … ${tail}`)).toBeNull();
    // Within 512 bytes: 170 three-byte characters, 510 bytes.
    expect(ledger.compactionProblem('run-1', 'v1', `${card.slice(0, 1_000)} … ${card.slice(-169)}`)).toContain('its last 510 bytes');
  });

  it('keeps the runs of one id on two binaries apart', () => {
    const ledger = new DigestLedger();
    ledger.written('run-1', 'v1', CARD_1);
    ledger.agentAsked('run-1', 'v1', 18, agentDigest(CARD_1));
    ledger.agentAsked('run-1', 'v2', 18, agentDigest(null));
    expect(ledger.compactionProblem('run-1', 'v2', 'no card')).toBeNull();
    expect(ledger.compactionProblem('run-1', 'v1', 'no card')).not.toBeNull();
  });

  it('measures no request that does not name its binary', () => {
    const ledger = new DigestLedger();
    ledger.written('run-1', null, CARD_1);
    ledger.agentAsked('run-1', null, 18, agentDigest(CARD_1));
    expect(ledger.compactionProblem('run-1', null, 'no card')).toBeNull();
  });

  it('asks the next compaction to show the start of the text the run was last answered, unless a text was elided', () => {
    const ledger = new DigestLedger();
    ledger.answered('run-1', 'v1', 17, '  Читаю src/bar/thorn/cinder/thread-port.py. Путь найден, теперь открываю файл целиком.');
    expect(ledger.compactionProblem('run-1', 'v1', '[17] assistant\nЧитаю src/bar/thorn/cinder/thread-port.py. Путь найден, …')).toBeNull();
    expect(ledger.compactionProblem('run-1', 'v1', '[17] assistant\n[elided: assistant text, 90,000 bytes]')).toBeNull();
    expect(ledger.compactionProblem('run-1', 'v1', '[16] tool\nok')).toBe(
      'the digest leaves out the assistant text of turn 17, the newest in the dialog ("Читаю src/bar/thorn/cinder/thread-port.py. Путь …"): its head window shows the start of every message',
    );
    // An answer without text (tool calls alone) asks nothing.
    ledger.answered('run-1', 'v1', 18, '');
    expect(ledger.compactionProblem('run-1', 'v1', '[16] tool\nok')).toBeNull();
  });

  it('reads a lone surrogate as U+FFFD on both sides, as a Go kernel decodes it', () => {
    const ledger = new DigestLedger();
    const card = `${CARD_1} \ud800`;
    ledger.written('run-1', 'v1', card);
    ledger.agentAsked('run-1', 'v1', 18, agentDigest(card.replace('\ud800', '\ufffd')));
    expect(ledger.compactionProblem('run-1', 'v1', card)).toBeNull();
  });
});

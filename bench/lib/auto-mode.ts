// Auto mode's point in one figure: the prompts a user is shown over the scripted 100-step Agent session
// (test/fixtures/auto-mode-session.ts) in ask mode vs auto mode, with the fake LLM as the model and as a
// reviewer that allows routine project work. Prints both counts, what auto still asked, and the ratio
// against the goal (auto asks at most 1 in 10 of ask mode's prompts). Asserts nothing.
import { RISKY_COMMAND, runScriptedSession } from '../../test/fixtures/auto-mode-session';
import { startFakeLlm } from '../../test/fixtures/fake-llm';

async function main() {
  const fake = await startFakeLlm();
  try {
    const ask = await runScriptedSession(fake, 'ask');
    const auto = await runScriptedSession(fake, 'auto');
    console.log(
      '\n## Prompts over a 100-step Agent session (reads, edits, npm test, git, a search, 1 risky, 1 outside)',
    );
    console.log('mode   steps   prompts   reviewer calls');
    for (const r of [ask, auto])
      console.log(
        `${r.mode.padEnd(5)}  ${String(r.steps).padStart(5)}   ${String(r.prompts.length).padStart(7)}   ` +
          String(r.reviews).padStart(14),
      );
    const ratio = ask.prompts.length ? auto.prompts.length / ask.prompts.length : 0;
    console.log(
      `auto asks ${auto.prompts.length} of ask mode's ${ask.prompts.length} ` +
        `(1 in ${ratio ? (1 / ratio).toFixed(1) : '∞'}); ` +
        `goal ≤ 1 in 10: ${ratio <= 0.1 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `auto still asked for: ${auto.prompts.map((p) => (p === RISKY_COMMAND ? `${p} (risky)` : p)).join(' | ')}`,
    );
  } finally {
    await fake.close();
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});

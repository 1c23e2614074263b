// The end-to-end suite: Sextant installed from its VSIX into code-server (a real VS Code), driven
// in headless Chromium. Scenarios share one workbench and run in this order; to add one, write
// `e2e.scenario(name, async ({ wb, fake }) => …)` in a file under scenarios/ and register it here.
// Run: npm run test:e2e [name-pattern]
import { E2E } from './harness/e2e';
import { chatScenarios } from './scenarios/chat';
import { keyScenarios, lifecycleScenarios } from './scenarios/lifecycle';
import { agentScenarios } from './scenarios/agent';
import { planScenarios } from './scenarios/plan';
import { trustToolScenarios } from './scenarios/trust-tools';
import { historyScenarios } from './scenarios/history';
import { renderingScenarios } from './scenarios/rendering';
import { trustSettingsScenarios } from './scenarios/trust-settings';
import { trustPermissionScenarios } from './scenarios/trust-permissions';
import { sandboxScenarios } from './scenarios/sandbox';
import { autoModeScenarios } from './scenarios/auto-mode';
import { memoryScenarios } from './scenarios/memory';
import { researchFetchScenarios } from './scenarios/research-fetch';
import { diffReviewScenarios } from './scenarios/diff-review';
import { researchSearchScenarios } from './scenarios/research-search';
import { researchScenarios } from './scenarios/research';
import { researchWorkspaceScenarios } from './scenarios/research-workspace';
import { rewindScenarios } from './scenarios/rewind';
import { costScenarios } from './scenarios/cost';
import { compactionScenarios } from './scenarios/compaction';
import { failoverScenarios } from './scenarios/failover';
import { modelScenarios } from './scenarios/models';
import { walkthroughFirstScenarios, walkthroughLastScenarios } from './scenarios/walkthrough';
import { mcpScenarios } from './scenarios/mcp';
import { lmToolScenarios } from './scenarios/lm-tools';
import { projectContextScenarios } from './scenarios/project-context';
import { repositoryLinkScenarios } from './scenarios/repository-links';
import { subagentScenarios } from './scenarios/subagents';
import { languageScenarios } from './scenarios/language';
import { queueSteerScenarios } from './scenarios/queue-steer';
import { imageScenarios } from './scenarios/images';
import { sessionsScenarios } from './scenarios/sessions';
import { worktreeScenarios } from './scenarios/worktree';
import { reloadMidRunScenarios } from './scenarios/reload-mid-run';
import { gitScenarios } from './scenarios/git';

const e2e = new E2E();
// First: the walkthrough opens on the first start, which only the first scenario sees.
walkthroughFirstScenarios(e2e);
chatScenarios(e2e);
renderingScenarios(e2e);
lifecycleScenarios(e2e);
agentScenarios(e2e);
subagentScenarios(e2e);
trustToolScenarios(e2e);
historyScenarios(e2e);
keyScenarios(e2e);
trustSettingsScenarios(e2e);
trustPermissionScenarios(e2e);
sandboxScenarios(e2e);
autoModeScenarios(e2e);
memoryScenarios(e2e);
researchFetchScenarios(e2e);
diffReviewScenarios(e2e);
researchSearchScenarios(e2e);
researchScenarios(e2e);
researchWorkspaceScenarios(e2e);
rewindScenarios(e2e);
costScenarios(e2e);
compactionScenarios(e2e);
failoverScenarios(e2e);
modelScenarios(e2e);
mcpScenarios(e2e);
lmToolScenarios(e2e);
projectContextScenarios(e2e);
repositoryLinkScenarios(e2e);
queueSteerScenarios(e2e);
imageScenarios(e2e);
sessionsScenarios(e2e);
worktreeScenarios(e2e);
gitScenarios(e2e);
reloadMidRunScenarios(e2e);
// Late: TypeScript's language service and its editors are the heaviest state a scenario leaves behind.
languageScenarios(e2e);
// Last: it leaves the chat in Agent mode with a todo list, which the scenarios above do not expect.
planScenarios(e2e);
walkthroughLastScenarios(e2e);
e2e.run();

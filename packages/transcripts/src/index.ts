/**
 * @mcp-tasks/transcripts: replayable wire transcripts of the MCP Tasks lifecycle (`io.modelcontextprotocol/tasks`,
 * MCP 2026-07-28), the runner that replays them against any server over Streamable HTTP, WebSocket or stdio and
 * reports every expectation, the recorder that writes them, and the command line around both.
 *
 * @module @mcp-tasks/transcripts
 */

export { type CheckVerdict, runCheck } from './checks.js';
export { type CliOutput, runCli } from './cli.js';
export { type HttpWireOptions, openHttpWire, routingHeaders } from './httpWire.js';
export { listPackFiles, loadPack, PACK_DIR, packFiles } from './loadPack.js';
export { fill, isObject, matchValue, readPath, type Vars } from './matchValue.js';
export { normalizeForPack } from './normalizeForPack.js';
export type { Observation } from './observation.js';
export { openWire, type Target } from './openWire.js';
export { recordPack } from './record.js';
export { type ReplayOptions, replayPack } from './replay.js';
export {
  type ExpectationResult,
  ExpectationResultSchema,
  formatReport,
  type Outcome,
  OutcomeSchema,
  type ReplayReport,
  ReplayReportSchema,
  summarize,
} from './report.js';
export { type Recordable, type RunMode, type RunnableStep, StepRunner } from './runSteps.js';
export { SCENARIOS, type Scenario } from './scenarios.js';
export { socketWire } from './socketWire.js';
export { type SpawnedServer, spawnServer } from './spawnServer.js';
export {
  type AwaitNotificationStep,
  AwaitNotificationStepSchema,
  type Captures,
  CapturesSchema,
  type CheckName,
  CheckNameSchema,
  type CloseStreamStep,
  CloseStreamStepSchema,
  type HttpExpectation,
  HttpExpectationSchema,
  type ListenStep,
  ListenStepSchema,
  MatcherSchema,
  type ParallelStep,
  ParallelStepSchema,
  type PollStep,
  PollStepSchema,
  type SendStep,
  SendStepSchema,
  type SingleStep,
  SingleStepSchema,
  type Step,
  StepSchema,
  type ToolRequirement,
  ToolRequirementSchema,
  type Transcript,
  TranscriptSchema,
} from './transcriptSchema.js';
export type { Exchange, Principal, Wire, WireRequestOptions } from './wire.js';

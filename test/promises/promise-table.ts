/**
 * The promise matrix, as one table: each promise once, each way in once. The test
 * (matrix.test.ts) is their product over the member kinds: every cell either runs its check against
 * the way in, or says here why the promise has nothing to hold there. A way in, member kind or MCP
 * revision added to the library without its row fails matrix.test.ts (or the type check).
 */
import type { MemberKind } from 'toolwright';
import type { McpEra } from 'toolwright/mcp';
import type { Caller } from '../fixtures/promises/members';
import type { Harness } from './harness';
import { aiSdkWay, invokeWay, neutralToolboxWay, toolboxWay } from './ways/in-process';
import { langChainWay } from './ways/langchain';
import { agentsWay } from './ways/agents';
import { anthropicWay } from './ways/anthropic';
import { geminiWay } from './ways/gemini';
import { httpApiWay } from './ways/http-api';
import { httpWay, localMountWay, remoteMountWay, stdioWay } from './ways/mcp-servers';
import { nestWay } from './ways/nest';
import { queueWay, tasks2025Way, tasks2026Way } from './ways/queue';
import { toolSearchWay } from './ways/tool-search';

export type PromiseId = 'approval' | 'hidden' | 'sensitive' | 'ambient' | 'identity' | 'bounds';

/** Each promise, as Security in the docs states it, and the member kinds it is about. */
export const PROMISES: Record<PromiseId, { says: string; kinds: Partial<Record<MemberKind, true | string>> }> = {
  approval: {
    says: 'a person approves exactly what runs, and it runs at most once per approval',
    kinds: { tool: true, resource: 'reads never need approval', 'resource-template': 'reads never need approval', prompt: 'prompts never need approval', completion: 'completions never need approval' },
  },
  hidden: {
    says: 'a hidden member is indistinguishable from an unknown one in lists, calls, reads, completions, subscriptions and errors',
    kinds: { tool: true, resource: true, 'resource-template': true, prompt: true, completion: true },
  },
  sensitive: {
    says: 'sensitive values never appear in questions, answers, logs, audit records or exception reports',
    kinds: { tool: true, resource: 'members other than tools declare no sensitive fields', 'resource-template': 'as resources', prompt: 'as resources', completion: 'as resources' },
  },
  ambient: {
    says: "ambient values come from the server, never from a caller's arguments",
    kinds: { tool: true, resource: 'the same input path as tools (tested in the resources suite)', 'resource-template': 'as resources', prompt: 'as resources', completion: 'as resources' },
  },
  identity: {
    says: 'sessions, streams and tasks belong to the identity that made them',
    kinds: { tool: true, resource: 'sessions are per caller, not per member', 'resource-template': 'as resources', prompt: 'as resources', completion: 'as resources' },
  },
  bounds: {
    says: 'each request is bounded in size and depth before anything recurses',
    kinds: { tool: true, resource: 'URIs are bounded by the transport (mcp-limits)', 'resource-template': 'as resources', prompt: 'prompt arguments are strings', completion: 'as prompts' },
  },
};

/**
 * How a way in gets a person's approval: it asks through its protocol (`person`: the question is
 * the way's own), it hands the application a record with the question to show (`app`), the
 * application asked before and says so (`flag`: the queue's `approved: true`), or it cannot ask
 * (`never`: a call that needs approval is refused).
 */
export type Asks = 'person' | 'app' | 'flag' | 'never';

export interface WayIn {
  /** The package entry point this way in is served by. */
  readonly entry: string;
  /** The MCP revision, for MCP ways in. */
  readonly era?: McpEra;
  readonly kinds: readonly MemberKind[];
  readonly asks: Asks;
  /** The callers this way in can tell apart (a way with one caller cannot hide by caller). */
  readonly callers: readonly Caller[];
  /** The ambient `user` the tool sees for `caller`. */
  readonly user: (caller: Caller) => string;
  /** Why a promise has nothing to hold on this way in (every other promise is checked). */
  readonly notApplicable: Partial<Record<PromiseId, string>>;
  open(): Promise<Harness>;
}

const ALL: readonly MemberKind[] = ['tool', 'resource', 'resource-template', 'prompt', 'completion'];
const BOTH: readonly Caller[] = ['reader', 'admin'];
const itself = (caller: Caller) => caller;
const NO_VISIBILITY = 'the application chooses the tools it hands over: there is no caller to hide a member from';
const NO_SESSION = 'nothing outlives the call: the application holds it';

export const WAYS: Record<string, WayIn> = {
  invoke: {
    entry: 'toolwright',
    kinds: ['tool'],
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: invokeWay,
  },
  toolbox: {
    entry: 'toolwright/toolbox',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: neutralToolboxWay,
  },
  'toolbox-openai': {
    entry: 'toolwright/openai',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: toolboxWay,
  },
  'toolbox-ai-sdk': {
    entry: 'toolwright/ai',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: aiSdkWay,
  },
  'toolbox-anthropic': {
    entry: 'toolwright/anthropic',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: anthropicWay,
  },
  'toolbox-gemini': {
    entry: 'toolwright/gemini',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: geminiWay,
  },
  'toolbox-langchain': {
    entry: 'toolwright/langchain',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: langChainWay,
  },
  'toolbox-agents': {
    entry: 'toolwright/agents',
    kinds: ['tool'],
    asks: 'app',
    callers: BOTH,
    user: itself,
    notApplicable: { hidden: NO_VISIBILITY, identity: NO_SESSION },
    open: agentsWay,
  },
  'mcp-2025-session': {
    entry: 'toolwright/mcp',
    era: 'legacy',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: {},
    open: () => httpWay('2025-11-25'),
  },
  'mcp-2025-stateless': {
    entry: 'toolwright/mcp',
    era: 'legacy',
    kinds: ALL,
    // Asked on the call's SSE answer; the client's answer, a later POST, reaches the server that asked.
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: { identity: 'stateless: no session outlives a request, each is authenticated on its own' },
    open: () => httpWay('2025-11-25', true),
  },
  'mcp-2025-stdio': {
    entry: 'toolwright/mcp',
    era: 'legacy',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: { identity: 'one client per process: the pipe is the identity' },
    open: stdioWay,
  },
  'mcp-2026': {
    entry: 'toolwright/mcp',
    era: 'modern',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: { identity: 'no sessions on 2026-07-28; a requestState is sealed to its caller (request-state tests)' },
    open: () => httpWay('2026-07-28'),
  },
  'mcp-mount-local': {
    entry: 'toolwright/mcp',
    era: 'modern',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: { identity: 'as mcp-2026: the mount is served by the same endpoint' },
    open: localMountWay,
  },
  'mcp-mount-remote': {
    entry: 'toolwright/mcp-client',
    era: 'modern',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: () => 'gateway',
    notApplicable: { identity: "as mcp-2026 on the gateway; the remote's session is the gateway's" },
    open: remoteMountWay,
  },
  'mcp-tool-search': {
    entry: 'toolwright/mcp',
    era: 'legacy',
    // toolSearch changes the tool list only; the other kinds are served as mcp-2025-session's.
    kinds: ['tool'],
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: { identity: 'as mcp-2025-session: toolSearch changes what a session lists, not whose it is' },
    open: toolSearchWay,
  },
  'http-api': {
    entry: 'toolwright/http',
    kinds: ['tool'],
    asks: 'never',
    callers: BOTH,
    user: itself,
    notApplicable: { identity: 'stateless: each request is authenticated on its own by auth.verify' },
    open: httpApiWay,
  },
  queue: {
    entry: 'toolwright/queue',
    kinds: ['tool'],
    asks: 'flag',
    callers: BOTH,
    user: itself,
    notApplicable: {
      hidden: NO_VISIBILITY,
      identity: 'the application holds its job ids; callers reach jobs only through MCP tasks (the tasks rows)',
    },
    open: queueWay,
  },
  'mcp-tasks-2025': {
    entry: 'toolwright/queue',
    era: 'legacy',
    kinds: ['tool'],
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: {},
    open: tasks2025Way,
  },
  'mcp-tasks-2026': {
    entry: 'toolwright/queue',
    era: 'modern',
    kinds: ['tool'],
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: {},
    open: tasks2026Way,
  },
  'nest-express': {
    entry: 'toolwright/nest',
    era: 'modern',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: {},
    open: () => nestWay('express'),
  },
  'nest-fastify': {
    entry: 'toolwright/nest',
    era: 'modern',
    kinds: ALL,
    asks: 'person',
    callers: BOTH,
    user: itself,
    notApplicable: {},
    open: () => nestWay('fastify'),
  },
};

/** Package entry points that are not ways in: the adapter kit and the test helpers. */
export const NOT_WAYS_IN: Record<string, string> = {
  './kit': 'what adapter authors build with',
  './testing': 'helpers for testing tools',
};

/** Every MCP revision has a row (a new McpEra fails the type check here). */
export const ERAS: Record<McpEra, true> = { legacy: true, modern: true };

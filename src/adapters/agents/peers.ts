// Loaded first by ./index.ts: a missing Agents SDK is named before any module of this entry point requires it.
import '../../index';
import { requirePeers } from '../../adapter-kit/internal';

requirePeers('toolwright/agents', ['@openai/agents']);

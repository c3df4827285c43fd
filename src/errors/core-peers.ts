// Loaded first by src/index.ts (every entry point loads it): the peers the core itself needs, named
// when one is missing (npm installs them with toolwright; other package managers may not).
import { requirePeers } from './peers';

requirePeers('toolwright', ['class-validator', 'class-transformer', 'reflect-metadata', 'tsyringe']);

// Loaded first by ./index.ts: a missing NestJS package is named before any module of this entry point requires it.
import '../../index';
import { requirePeers } from '../../adapter-kit/internal';

requirePeers('toolwright/nest', ['@nestjs/common', '@nestjs/core']);

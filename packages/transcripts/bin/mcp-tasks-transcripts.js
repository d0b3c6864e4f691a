#!/usr/bin/env node
// The committed launcher of the built CLI: pnpm links bins at install time, before anything is built, so a bin
// pointing into dist/ would fail to link on a fresh clone; this file always exists and loads dist/main.js.
import '../dist/main.js';

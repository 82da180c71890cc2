#!/usr/bin/env node
import '../dist/cli/evalstream.js';

import { CLIENT_APP } from './client-app.js';
import { CLIENT_CHARTS } from './client-charts.js';
import { CLIENT_DOM } from './client-dom.js';
import { CLIENT_VIEWS } from './client-views.js';

/**
 * The report page's whole script: the four parts in one strict-mode IIFE (no modules, no network).
 *
 * @example
 * `<script>${REPORT_CLIENT_SCRIPT}</script>`;
 */
export const REPORT_CLIENT_SCRIPT = `(function () {\n'use strict';\n${CLIENT_DOM}${CLIENT_CHARTS}${CLIENT_VIEWS}${CLIENT_APP}})();\n`;

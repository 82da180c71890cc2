import { start } from './page/app.js';

start();

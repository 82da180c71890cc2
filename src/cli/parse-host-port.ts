import { CliError } from './cli-error.js';

/**
 * Parses `HOST:PORT` (`[::1]:4318` for IPv6; a bare `PORT` binds 127.0.0.1).
 *
 * @example
 * parseHostPort('127.0.0.1:4318', '--http'); // { host: '127.0.0.1', port: 4318 }
 */
export function parseHostPort(value: string, flag: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(value) ?? /^()()(\d+)$/.exec(value);
  const port = Number(match?.[3]);
  if (match === null || !Number.isInteger(port) || port < 0 || port > 65535) {
    throw new CliError(`${flag} expects HOST:PORT (e.g. 127.0.0.1:4318), got '${value}'`);
  }
  const host = match[1] ?? (match[2] === '' || match[2] === undefined ? '127.0.0.1' : match[2]);
  return { host, port };
}

import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Request, Response } from 'express';
import type { Config } from '../config';
import { ApiError } from '../errors';

/**
 * Cookies of the web pages, and their CSRF protection: every form carries the token held in the
 * `csrftoken` cookie (Django's double-submit scheme), which another site can neither read nor set.
 */
export const SESSION_COOKIE = 'sessionid';
const CSRF_COOKIE = 'csrftoken';
export const CSRF_FIELD = 'csrfmiddlewaretoken';

export function readCookie(req: { headers: IncomingHttpHeaders }, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, and Secure when the server is reached over https. */
export function setCookie(res: Response, config: Config, name: string, value: string, maxAgeSeconds: number): void {
  res.cookie(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.externalUrl.startsWith('https:'),
    path: '/',
    maxAge: maxAgeSeconds * 1000,
  });
}

export function clearCookie(res: Response, config: Config, name: string): void {
  res.clearCookie(name, { httpOnly: true, sameSite: 'lax', secure: config.externalUrl.startsWith('https:'), path: '/' });
}

/** The token for the forms of this page, issued with a cookie if the browser has none yet. */
export function csrfToken(req: Request, res: Response, config: Config): string {
  const existing = readCookie(req, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = crypto.randomBytes(32).toString('base64url');
  setCookie(res, config, CSRF_COOKIE, token, 365 * 24 * 3600);
  return token;
}

export const csrfInput = (token: string) => `<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

const csrfFailed = () => new ApiError('CSRF_FAILED', 'CSRF verification failed. Reload the page and try again.', 403);

/** The cookie's token and the one sent beside it are the same (and not empty), compared in constant time. */
function sameToken(cookie: string, sent: string): boolean {
  const a = Buffer.from(cookie);
  const b = Buffer.from(sent);
  return cookie !== '' && a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** Refuses a form whose token is missing or differs from the cookie's. */
export function checkCsrf(req: Request, body: Record<string, unknown>): void {
  const field = typeof body[CSRF_FIELD] === 'string' ? (body[CSRF_FIELD] as string) : '';
  if (!sameToken(readCookie(req, CSRF_COOKIE) ?? '', field)) throw csrfFailed();
}

/**
 * Refuses a script's request (GraphQL, /json) whose `X-CSRFToken` header is missing or differs from
 * the cookie's: the web app reads the token from its page, which another site cannot.
 */
export function checkCsrfHeader(req: { headers: IncomingHttpHeaders }): void {
  const header = req.headers['x-csrftoken'];
  if (!sameToken(readCookie(req, CSRF_COOKIE) ?? '', typeof header === 'string' ? header : '')) throw csrfFailed();
}

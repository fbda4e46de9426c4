/**
 * The one error type actions throw. REST turns it into Zulip's error envelope, GraphQL into an
 * error whose extensions.code is the same Zulip code.
 */
export class ApiError extends Error {
  constructor(
    public readonly code: string,
    message: string,
    public readonly httpStatus = 400,
    public readonly extra: Record<string, unknown> = {},
    public readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    return { result: 'error', msg: this.message, code: this.code, ...this.extra };
  }
}

/** Shorthands for the errors that recur across features. */
export const errors = {
  badRequest: (msg: string, extra: Record<string, unknown> = {}) => new ApiError('BAD_REQUEST', msg, 400, extra),
  missing: (name: string) => new ApiError('REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`, 400, { var_name: name }),
  invalidJson: (name: string) => new ApiError('INVALID_JSON', `Argument "${name}" is not valid JSON.`, 400),
  unauthorized: () =>
    new ApiError(
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
      401,
      {},
      {
        'WWW-Authenticate': 'Basic realm="zulip"',
      },
    ),
  insufficientPermission: () => new ApiError('BAD_REQUEST', 'Insufficient permission', 400),
  mustBeAdmin: () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator', 400),
  mustBeOwner: () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner', 400),
  noSuchUser: () => new ApiError('BAD_REQUEST', 'No such user', 400),
  notFound: (msg = 'Not Found') => new ApiError('NOT_FOUND', msg, 404),
  /** A request that came before start-up finished (Zulip's code for a server not ready yet). */
  serverNotReady: () => new ApiError('SERVER_NOT_READY', 'The server is starting; try again shortly.', 503, {}, { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
  /** The database could not be reached, or did not answer in time. */
  databaseUnavailable: () =>
    new ApiError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly.', 503, {}, { 'Retry-After': String(RETRY_AFTER_SECONDS) }),
};

/** What a 503 asks clients to wait before trying again, in seconds (the Retry-After header). */
export const RETRY_AFTER_SECONDS = 5;

import path from 'node:path';
import { isValidEmail } from '../validation/email';
import { parseProxyEntry } from './proxy-entry';
import { DEFAULT_RATE_RULES, parseRateRules, RATE_RULE_VARIABLES, RateDomain, RateRules } from './rate-rules';
import type { GraphQLLimits } from './graphql-limits';
import {
  BigBlueButtonConfig,
  bigBlueButtonConfig,
  constructorGroupsConfig,
  ConstructorGroupsConfig,
  nextcloudTalkConfig,
  NextcloudTalkConfig,
  ZoomConfig,
  zoomConfig,
} from './call-providers';
import { boolVar, ConfigError, type Env, intVar, requiredVar, urlVar } from './variables';

export type { BigBlueButtonConfig, ZoomConfig } from './call-providers';
export { ConfigError } from './variables';

/** Runtime configuration, read from the environment once at start-up. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A postgres:// URL; when absent the embedded PGlite database under dataDir is used. */
  databaseUrl: string | null;
  /** PostgreSQL: longest a statement may run, in ms (the connections' statement_timeout); 0: no limit. */
  dbStatementTimeoutMs: number;
  /** PostgreSQL: longest a request waits for a database connection (pooled or new), in ms. */
  dbAcquireTimeoutMs: number;
  realmName: string;
  /** Public base URL of the server, as clients reach it. */
  externalUrl: string;
  ownerEmail: string;
  ownerPassword: string | null;
  redisUrl: string | null;
  heartbeatSeconds: number;
  queueTimeoutSeconds: number;
  /** Least severe log level written (LOG_LEVEL); `silent` writes none. */
  logLevel: LogLevel;
  /** Origins allowed to call /api/v1 and /graphql from a browser (CORS); empty allows none. */
  corsOrigins: string[];
  /** Zulip's mobile push notification service; null sends no mobile notifications. */
  pushService: PushServiceConfig | null;
  /** smtp:// or smtps:// URL for outgoing email; null writes email to the outbox under dataDir. */
  smtpUrl: string | null;
  /** Sender address of outgoing email. */
  emailFrom: string;
  /** Invitation emails the organization may send per 24 hours. */
  invitesDailyMax: number;
  /** Validity of an invitation when the inviter does not choose one. */
  invitationValidityMinutes: number;
  /** Largest request body accepted, in bytes; larger ones are refused before they are read. */
  maxRequestBodyBytes: number;
  /** Whether requests and logins are rate limited (off for benchmarks and trusted deployments). */
  rateLimiting: boolean;
  rateLimitRules: RateRules;
  /** Reverse proxies whose X-Forwarded-For names the client (addresses or CIDR blocks). */
  trustedProxies: string[];
  /** How long one POST /streams/{id}/delete_topic keeps deleting before answering `complete: false`. */
  deleteTopicTimeLimitSeconds: number;
  /** How often expired messages are deleted (message retention); 0: never. */
  retentionIntervalSeconds: number;
  /** How often members past the waiting period join role:fullmembers; 0: never. */
  fullMemberIntervalSeconds: number;
  /** Largest file clients may upload, in MiB (reported as max_file_upload_size_mib). */
  maxFileUploadSizeMib: number;
  /** Total size of the organization's uploaded files, in MiB; null sets no quota. */
  uploadQuotaMib: number | null;
  /** How often stored files no row names are removed (PARLEY_UPLOAD_SWEEP_INTERVAL_SECONDS); 0: never. */
  uploadSweepIntervalSeconds: number;
  /** Files younger than this are never swept, so an upload still being recorded is safe (PARLEY_UPLOAD_SWEEP_GRACE_SECONDS). */
  uploadSweepGraceSeconds: number;
  /** Where uploaded files go: an S3-compatible bucket, or DATA_DIR/uploads when null. */
  s3: S3Config | null;
  /** Bounds on one GraphQL operation (HTTP and WebSocket). */
  graphqlLimits: GraphQLLimits;
  /** Bounds on GraphQL WebSocket connections. */
  socketLimits: SocketLimits;
  /** Event queues one user may hold; registering another evicts the longest idle. */
  maxQueuesPerUser: number;
  /** Bearer token GET /metrics requires; null serves metrics to loopback clients only. */
  metricsToken: string | null;
  /** Longest wait between two looks for scheduled messages that fell due (other processes' too). */
  schedulerPollMs: number;
  /**
   * Whether this process makes thumbnails of uploaded images in the background on its own
   * (PARLEY_THUMBNAIL_WORKER); off, pending images wait for another process or a thumbnail request.
   */
  thumbnailWorker: boolean;
  /** The outbox's first retry delay (PARLEY_OUTBOX_RETRY_BASE_MS); each further retry waits twice as long. */
  outboxRetryBaseMs: number;
  /** Attempts before an outbox item is dead (PARLEY_OUTBOX_MAX_ATTEMPTS); null: each kind's own limit. */
  outboxMaxAttempts: number | null;
  /** How long a claim on an outbox item lasts; a process that dies holding one leaves it this long. */
  outboxLeaseMs: number;
  /** Password logins checked against a directory server; null when PARLEY_LDAP_URL is unset. */
  ldap: LdapConfig | null;
  /** OpenID Connect single sign-on; null when PARLEY_OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
  /** BigBlueButton server for video calls; null when PARLEY_BIGBLUEBUTTON_URL is unset. */
  bigBlueButton: BigBlueButtonConfig | null;
  /** Zoom app for video calls (server-to-server with an account id, else per-user OAuth); null when PARLEY_ZOOM_CLIENT_ID is unset. */
  zoom: ZoomConfig | null;
  /** Constructor Groups API for video calls; null when PARLEY_CONSTRUCTOR_GROUPS_URL is unset. */
  constructorGroups: ConstructorGroupsConfig | null;
  /** Nextcloud server whose Talk app makes video calls; null when PARLEY_NEXTCLOUD_URL is unset. */
  nextcloudTalk: NextcloudTalkConfig | null;
  /** Tenor API key handed to clients for their GIF picker (PARLEY_TENOR_API_KEY); '' when unset. */
  tenorApiKey: string;
  /**
   * Whether the organization's owners may read all private content (PARLEY_OWNER_FULL_CONTENT_ACCESS,
   * off by default): Zulip's owner_full_content_access, set only by the operator, which allows
   * exports of all private data without members' consent.
   */
  ownerFullContentAccess: boolean;
}

export interface LdapConfig {
  url: string;
  /** null: searches bind anonymously. */
  bindDn: string | null;
  bindPassword: string | null;
  searchBase: string;
  /** The search filter; `%(user)s` stands for the username typed (escaped). */
  filter: string;
  /** Directory attribute holding the account's address and name. */
  emailAttr: string | null;
  fullNameAttr: string;
  /** Whether a directory user without an account gets one at first login. */
  createUsers: boolean;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Shown on the login button and in server_settings. */
  name: string;
  /** Whether a provider user without an account gets one at first login. */
  createUsers: boolean;
}

/** An S3 (or S3-compatible) bucket holding uploaded files, avatars and organization images. */
export interface S3Config {
  bucket: string;
  /** The service's URL for an S3-compatible store; null: Amazon S3 in `region`. */
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Buckets addressed as ENDPOINT/BUCKET rather than BUCKET.ENDPOINT (most self-hosted stores). */
  forcePathStyle: boolean;
}

export interface SocketLimits {
  /** Largest frame a client may send, in bytes. */
  maxPayloadBytes: number;
  /** Time a socket has to send connection_init. */
  initTimeoutMs: number;
  /** Sockets not yet authenticated, over the whole process. */
  maxUnauthenticated: number;
  maxPerUser: number;
  /** Operations (subscriptions, queries) running at once on one socket. */
  maxSubscriptions: number;
}

/** Where mobile notifications go, and this server's registration there (Zulip's ZULIP_ORG_ID/KEY). */
export interface PushServiceConfig {
  url: string;
  orgId: string;
  orgKey: string;
}

export function loadConfig(env: Env = process.env): Config {
  const port = intVar(env, 'PORT', 9991, 0, 65535);
  const host = (env.HOST ?? '').trim() || '127.0.0.1';
  const dataDir = path.resolve((env.DATA_DIR ?? '').trim() || './data');
  const databaseUrl = urlVar(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = urlVar(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const ownerEmail = (env.PARLEY_OWNER_EMAIL ?? '').trim() || 'owner@example.com';
  // Checked as account creation will check it, so a bad address stops the start-up here.
  if (!isValidEmail(ownerEmail)) throw new ConfigError(`PARLEY_OWNER_EMAIL is not an email address: "${ownerEmail}"`);
  const ownerPassword = env.PARLEY_OWNER_PASSWORD ? env.PARLEY_OWNER_PASSWORD : null;
  if (ownerPassword !== null && ownerPassword.length < 8) {
    throw new ConfigError('PARLEY_OWNER_PASSWORD must be at least 8 characters long');
  }
  const realmName = (env.PARLEY_REALM_NAME ?? '').trim() || 'Parley';
  if (realmName.length > 40) throw new ConfigError('PARLEY_REALM_NAME must be at most 40 characters long');
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const externalUrl = (urlVar(env, 'PARLEY_EXTERNAL_URL', ['http:', 'https:']) ?? `http://${displayHost}:${port}`).replace(/\/+$/, '');
  const maxFileUploadSizeMib = intVar(env, 'PARLEY_MAX_FILE_UPLOAD_SIZE_MIB', 25, 0, 1_000_000);
  return {
    port,
    host,
    dataDir,
    databaseUrl,
    dbStatementTimeoutMs: intVar(env, 'PARLEY_DB_STATEMENT_TIMEOUT_MS', 30_000, 0, 24 * 3_600_000),
    dbAcquireTimeoutMs: intVar(env, 'PARLEY_DB_ACQUIRE_TIMEOUT_MS', 10_000, 100, 600_000),
    realmName,
    externalUrl,
    ownerEmail,
    ownerPassword,
    redisUrl,
    heartbeatSeconds: intVar(env, 'PARLEY_HEARTBEAT_SECONDS', 60, 1, 3600),
    queueTimeoutSeconds: intVar(env, 'PARLEY_QUEUE_TIMEOUT_SECONDS', 600, 1, 7 * 24 * 3600),
    logLevel: logLevel(env),
    corsOrigins: corsOrigins(env),
    pushService: pushService(env),
    smtpUrl: urlVar(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    emailFrom: emailFrom(env, externalUrl),
    invitesDailyMax: intVar(env, 'PARLEY_INVITES_DAILY_MAX', 100, 0, 1_000_000),
    invitationValidityMinutes: intVar(env, 'PARLEY_INVITATION_VALIDITY_MINUTES', 14400, 1, 10_000_000),
    ...requestLimits(env, maxFileUploadSizeMib),
    deleteTopicTimeLimitSeconds: intVar(env, 'PARLEY_DELETE_TOPIC_TIME_LIMIT_SECONDS', 50, 0, 3600),
    retentionIntervalSeconds: intVar(env, 'PARLEY_RETENTION_INTERVAL_SECONDS', 3600, 0, 7 * 24 * 3600),
    fullMemberIntervalSeconds: intVar(env, 'PARLEY_FULL_MEMBER_INTERVAL_SECONDS', 3600, 0, 7 * 24 * 3600),
    maxFileUploadSizeMib,
    uploadSweepIntervalSeconds: intVar(env, 'PARLEY_UPLOAD_SWEEP_INTERVAL_SECONDS', 24 * 3600, 0, 30 * 24 * 3600),
    uploadSweepGraceSeconds: intVar(env, 'PARLEY_UPLOAD_SWEEP_GRACE_SECONDS', 3600, 300, 30 * 24 * 3600),
    uploadQuotaMib:
      env.PARLEY_UPLOAD_QUOTA_MIB === undefined || env.PARLEY_UPLOAD_QUOTA_MIB.trim() === ''
        ? null
        : intVar(env, 'PARLEY_UPLOAD_QUOTA_MIB', 0, 0, 1_000_000_000),
    s3: s3Config(env),
    ...abuseLimits(env),
    metricsToken: metricsToken(env),
    schedulerPollMs: intVar(env, 'PARLEY_SCHEDULER_POLL_MS', 5000, 10, 3_600_000),
    thumbnailWorker: boolVar(env, 'PARLEY_THUMBNAIL_WORKER', true),
    outboxRetryBaseMs: intVar(env, 'PARLEY_OUTBOX_RETRY_BASE_MS', 1000, 1, 3_600_000),
    outboxMaxAttempts: env.PARLEY_OUTBOX_MAX_ATTEMPTS?.trim() ? intVar(env, 'PARLEY_OUTBOX_MAX_ATTEMPTS', 1, 1, 100) : null,
    // At least 15 s: a claim must outlast the longest send (an outgoing webhook's 10 s timeout).
    outboxLeaseMs: intVar(env, 'PARLEY_OUTBOX_LEASE_SECONDS', 60, 15, 3600) * 1000,
    ldap: ldapConfig(env),
    oidc: oidcConfig(env),
    bigBlueButton: bigBlueButtonConfig(env),
    zoom: zoomConfig(env),
    constructorGroups: constructorGroupsConfig(env),
    nextcloudTalk: nextcloudTalkConfig(env),
    tenorApiKey: (env.PARLEY_TENOR_API_KEY ?? '').trim(),
    ownerFullContentAccess: boolVar(env, 'PARLEY_OWNER_FULL_CONTENT_ACCESS', false),
  };
}

function ldapConfig(env: Env): LdapConfig | null {
  const url = urlVar(env, 'PARLEY_LDAP_URL', ['ldap:', 'ldaps:']);
  if (url === null) return null;
  const filter = (env.PARLEY_LDAP_FILTER ?? '').trim() || '(uid=%(user)s)';
  if (!filter.includes('%(user)s') || !filter.startsWith('(')) {
    throw new ConfigError(`PARLEY_LDAP_FILTER must be an LDAP filter containing %(user)s, got "${filter}"`);
  }
  const map: Record<string, string> = { full_name: 'cn' };
  for (const pair of (env.PARLEY_LDAP_ATTR_MAP ?? '').split(',').filter((p) => p.trim() !== '')) {
    const match = /^\s*(full_name|email)\s*=\s*([A-Za-z][A-Za-z0-9-]*)\s*$/.exec(pair);
    if (!match) throw new ConfigError(`PARLEY_LDAP_ATTR_MAP must be field=attribute pairs (full_name, email) separated by commas, got "${pair}"`);
    map[match[1]] = match[2];
  }
  const bindDn = (env.PARLEY_LDAP_BIND_DN ?? '').trim() || null;
  return {
    url,
    bindDn,
    bindPassword: bindDn === null ? null : (env.PARLEY_LDAP_BIND_PASSWORD ?? ''),
    searchBase: requiredVar(env, 'PARLEY_LDAP_SEARCH_BASE', 'PARLEY_LDAP_URL'),
    filter,
    emailAttr: map.email ?? null,
    fullNameAttr: map.full_name,
    createUsers: boolVar(env, 'PARLEY_LDAP_CREATE_USERS', false),
  };
}

function oidcConfig(env: Env): OidcConfig | null {
  const issuer = urlVar(env, 'PARLEY_OIDC_ISSUER', ['http:', 'https:']);
  if (issuer === null) return null;
  return {
    issuer,
    clientId: requiredVar(env, 'PARLEY_OIDC_CLIENT_ID', 'PARLEY_OIDC_ISSUER'),
    clientSecret: requiredVar(env, 'PARLEY_OIDC_CLIENT_SECRET', 'PARLEY_OIDC_ISSUER'),
    name: (env.PARLEY_OIDC_NAME ?? '').trim() || 'OpenID Connect',
    createUsers: boolVar(env, 'PARLEY_OIDC_CREATE_USERS', false),
  };
}

/**
 * Zoom's two kinds of app, as in Zulip: client id and secret alone are a per-user OAuth app (each
 * member connects their own Zoom account); with an account id they are a server-to-server app.
 */

const S3_VARIABLES = ['PARLEY_S3_ENDPOINT', 'PARLEY_S3_REGION', 'PARLEY_S3_ACCESS_KEY_ID', 'PARLEY_S3_SECRET_ACCESS_KEY', 'PARLEY_S3_FORCE_PATH_STYLE'];

/**
 * The bucket and its credentials, all checked here so that a half-configured store stops the
 * start-up instead of failing the first upload. Credentials are required (never looked for
 * elsewhere): files must not silently land in whatever account the machine's environment names.
 */
function s3Config(env: Env): S3Config | null {
  const bucket = (env.PARLEY_S3_BUCKET ?? '').trim();
  if (bucket === '') {
    const stray = S3_VARIABLES.find((name) => (env[name] ?? '').trim() !== '');
    if (stray) throw new ConfigError(`PARLEY_S3_BUCKET must be set when ${stray} is`);
    return null;
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{1,61}[A-Za-z0-9]$/.test(bucket)) {
    throw new ConfigError(`PARLEY_S3_BUCKET must be a bucket name (3 to 63 letters, digits, dots, hyphens), got "${bucket}"`);
  }
  const endpoint = urlVar(env, 'PARLEY_S3_ENDPOINT', ['http:', 'https:']);
  const region = (env.PARLEY_S3_REGION ?? '').trim();
  // Amazon needs the bucket's region; a self-hosted store mostly ignores it.
  if (region === '' && endpoint === null)
    throw new ConfigError('PARLEY_S3_REGION must be set when PARLEY_S3_BUCKET is (or PARLEY_S3_ENDPOINT for a non-Amazon store)');
  if (region !== '' && !/^[a-z0-9-]{1,50}$/.test(region)) throw new ConfigError(`PARLEY_S3_REGION must be a region name such as eu-west-1, got "${region}"`);
  return {
    bucket,
    endpoint: endpoint?.replace(/\/+$/, '') ?? null,
    region: region || 'us-east-1',
    accessKeyId: requiredVar(env, 'PARLEY_S3_ACCESS_KEY_ID', 'PARLEY_S3_BUCKET'),
    secretAccessKey: requiredVar(env, 'PARLEY_S3_SECRET_ACCESS_KEY', 'PARLEY_S3_BUCKET'),
    forcePathStyle: boolVar(env, 'PARLEY_S3_FORCE_PATH_STYLE', false),
  };
}

/** Limits that keep one client from taking the server's time or memory (see the README's table). */
function abuseLimits(env: Env): Pick<Config, 'graphqlLimits' | 'socketLimits' | 'maxQueuesPerUser'> {
  const big = 100_000_000;
  return {
    graphqlLimits: {
      maxDepth: intVar(env, 'PARLEY_GRAPHQL_MAX_DEPTH', 15, 1, 1000),
      maxCost: intVar(env, 'PARLEY_GRAPHQL_MAX_COST', 100_000, 1, big),
      maxRows: intVar(env, 'PARLEY_GRAPHQL_MAX_ROWS', 25_000, 1, big),
      maxAliases: intVar(env, 'PARLEY_GRAPHQL_MAX_ALIASES', 30, 0, big),
      maxRootFields: intVar(env, 'PARLEY_GRAPHQL_MAX_ROOT_FIELDS', 30, 1, big),
      maxMutations: intVar(env, 'PARLEY_GRAPHQL_MAX_MUTATIONS', 5, 1, big),
      maxTokens: intVar(env, 'PARLEY_GRAPHQL_MAX_TOKENS', 5000, 200, big),
      maxReplyBytes: intVar(env, 'PARLEY_GRAPHQL_MAX_REPLY_BYTES', 64 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    },
    socketLimits: {
      maxPayloadBytes: intVar(env, 'PARLEY_WS_MAX_PAYLOAD_BYTES', 128 * 1024, 1024, 100 * 1024 * 1024),
      initTimeoutMs: intVar(env, 'PARLEY_WS_INIT_TIMEOUT_SECONDS', 3, 1, 3600) * 1000,
      maxUnauthenticated: intVar(env, 'PARLEY_WS_MAX_UNAUTHENTICATED', 100, 1, big),
      maxPerUser: intVar(env, 'PARLEY_WS_MAX_SOCKETS_PER_USER', 20, 1, big),
      maxSubscriptions: intVar(env, 'PARLEY_WS_MAX_SUBSCRIPTIONS', 50, 1, big),
    },
    maxQueuesPerUser: intVar(env, 'PARLEY_MAX_QUEUES_PER_USER', 50, 1, big),
  };
}

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevel(env: Env): LogLevel {
  const raw = (env.LOG_LEVEL ?? '').trim().toLowerCase();
  if (raw === '') return 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  return raw as LogLevel;
}

/** Origins as browsers send them: scheme, host and port only, no path. `*` allows any. */
function corsOrigins(env: Env): string[] {
  const entries = (env.PARLEY_CORS_ORIGINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  return entries.map((entry) => {
    if (entry === '*') return entry;
    let url: URL | null = null;
    try {
      url = new URL(entry);
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry.replace(/\/$/, '')) {
      throw new ConfigError(`PARLEY_CORS_ORIGINS must list origins such as https://chat.example.com (scheme, host, optional port), got "${entry}"`);
    }
    return url.origin;
  });
}

function metricsToken(env: Env): string | null {
  const raw = (env.PARLEY_METRICS_TOKEN ?? '').trim();
  if (raw === '') return null;
  if (raw.length < 16 || !/^[\x21-\x7e]+$/.test(raw)) {
    throw new ConfigError('PARLEY_METRICS_TOKEN must be at least 16 printable characters without spaces');
  }
  return raw;
}

/**
 * Request size and rate limits. The body limit is Zulip's 25 MiB, or 1 MiB more than the largest
 * file upload allowed when that is over 25 MiB (an upload's body is the file plus its framing).
 */
function requestLimits(env: Env, maxFileUploadSizeMib: number): Pick<Config, 'maxRequestBodyBytes' | 'rateLimiting' | 'rateLimitRules' | 'trustedProxies'> {
  const bodyMib = intVar(env, 'PARLEY_MAX_REQUEST_BODY_MIB', maxFileUploadSizeMib > 25 ? maxFileUploadSizeMib + 1 : 25, 1, 1_000_001);
  return {
    maxRequestBodyBytes: bodyMib * 1024 * 1024,
    rateLimiting: boolVar(env, 'PARLEY_RATE_LIMITING', true),
    rateLimitRules: rateRules(env),
    trustedProxies: trustedProxies(env),
  };
}

function trustedProxies(env: Env): string[] {
  const entries = (env.PARLEY_TRUSTED_PROXIES ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!parseProxyEntry(entry)) throw new ConfigError(`PARLEY_TRUSTED_PROXIES must list IP addresses or CIDR blocks, got "${entry}"`);
  }
  return entries;
}

function rateRules(env: Env): RateRules {
  const rules = { ...DEFAULT_RATE_RULES };
  for (const [domain, name] of Object.entries(RATE_RULE_VARIABLES) as [RateDomain, string][]) {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') continue;
    const parsed = parseRateRules(raw);
    if (!parsed) throw new ConfigError(`${name} must be seconds:requests pairs separated by commas (e.g. 60:200), got "${raw}"`);
    rules[domain] = parsed;
  }
  return rules;
}

/** The service's URL with the registration's id and key: all three, or none. */
function pushService(env: Env): PushServiceConfig | null {
  const url = urlVar(env, 'PARLEY_PUSH_BOUNCER_URL', ['http:', 'https:']);
  const orgId = (env.PARLEY_PUSH_BOUNCER_ORG_ID ?? '').trim();
  const orgKey = (env.PARLEY_PUSH_BOUNCER_ORG_KEY ?? '').trim();
  if (!url && !orgId && !orgKey) return null;
  if (!url || !orgId || !orgKey) {
    throw new ConfigError('PARLEY_PUSH_BOUNCER_URL, PARLEY_PUSH_BOUNCER_ORG_ID and PARLEY_PUSH_BOUNCER_ORG_KEY must be set together');
  }
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(orgId)) {
    throw new ConfigError(`PARLEY_PUSH_BOUNCER_ORG_ID must be a UUID, got "${orgId}"`);
  }
  if (!/^[\x21-\x7e]{16,}$/.test(orgKey)) throw new ConfigError('PARLEY_PUSH_BOUNCER_ORG_KEY must be at least 16 printable characters');
  return { url: url.replace(/\/+$/, ''), orgId, orgKey };
}

function emailFrom(env: Env, externalUrl: string): string {
  const raw = (env.PARLEY_EMAIL_FROM ?? '').trim();
  if (raw !== '') {
    if (!/^[^\s@<>]+@[^\s@<>]+$/.test(raw)) throw new ConfigError(`PARLEY_EMAIL_FROM is not an email address: "${raw}"`);
    return raw;
  }
  return `noreply@${new URL(externalUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost'}`;
}

/** Where the embedded database keeps its files (server and operator commands alike); null with PostgreSQL. */
export function embeddedDatabaseDir(config: Config): string | null {
  return config.databaseUrl ? null : path.join(config.dataDir, 'pgdata');
}

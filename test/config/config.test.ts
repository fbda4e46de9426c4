import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';

describe('defaults', () => {
  test('an empty environment gives a working local configuration', () => {
    expect(loadConfig({})).toEqual({
      port: 9991,
      host: '127.0.0.1',
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      realmName: 'Parley',
      externalUrl: 'http://127.0.0.1:9991',
      ownerEmail: 'owner@example.com',
      ownerPassword: null,
      redisUrl: null,
      retentionIntervalSeconds: 3600,
      fullMemberIntervalSeconds: 3600,
      schedulerPollMs: 5000,
      thumbnailWorker: true,
      heartbeatSeconds: 60,
      queueTimeoutSeconds: 600,
      logLevel: 'info',
      corsOrigins: [],
      pushService: null,
      smtpUrl: null,
      emailFrom: 'noreply@127.0.0.1',
      invitesDailyMax: 100,
      invitationValidityMinutes: 14400,
      maxRequestBodyBytes: 25 * 1024 * 1024,
      rateLimiting: true,
      // Zulip's RATE_LIMITING_RULES defaults, plus failed logins per address.
      rateLimitRules: {
        api_by_user: [{ seconds: 60, requests: 200 }],
        api_by_ip: [{ seconds: 60, requests: 100 }],
        authenticate_by_username: [{ seconds: 1800, requests: 5 }],
        authenticate_by_ip: [{ seconds: 1800, requests: 50 }],
        password_reset_form_by_email: [
          { seconds: 3600, requests: 2 },
          { seconds: 86400, requests: 5 },
        ],
        sends_email_by_ip: [{ seconds: 86400, requests: 5 }],
        email_change_by_user: [
          { seconds: 3600, requests: 2 },
          { seconds: 86400, requests: 5 },
        ],
      },
      trustedProxies: [],
      deleteTopicTimeLimitSeconds: 50,
      maxFileUploadSizeMib: 25,
      uploadQuotaMib: null,
      uploadSweepIntervalSeconds: 24 * 3600,
      uploadSweepGraceSeconds: 3600,
      dbStatementTimeoutMs: 30000,
      dbAcquireTimeoutMs: 10000,
      outboxRetryBaseMs: 1000,
      outboxMaxAttempts: null,
      outboxLeaseMs: 60000,
      tenorApiKey: '',
      ownerFullContentAccess: false,
      s3: null,
      graphqlLimits: {
        maxDepth: 15,
        maxCost: 100_000,
        maxRows: 25_000,
        maxAliases: 30,
        maxRootFields: 30,
        maxMutations: 5,
        maxTokens: 5000,
        maxReplyBytes: 67108864,
      },
      socketLimits: { maxPayloadBytes: 131072, initTimeoutMs: 3000, maxUnauthenticated: 100, maxPerUser: 20, maxSubscriptions: 50 },
      maxQueuesPerUser: 50,
      metricsToken: null,
      ldap: null,
      oidc: null,
      bigBlueButton: null,
      zoom: null,
      constructorGroups: null,
      nextcloudTalk: null,
    });
  });

  test('abuse limits come from the environment and are checked', () => {
    const config = loadConfig({ PARLEY_GRAPHQL_MAX_COST: '500', PARLEY_WS_INIT_TIMEOUT_SECONDS: '10', PARLEY_MAX_QUEUES_PER_USER: '7' });
    expect([config.graphqlLimits.maxCost, config.socketLimits.initTimeoutMs, config.maxQueuesPerUser]).toEqual([500, 10_000, 7]);
    expect(() => loadConfig({ PARLEY_GRAPHQL_MAX_MUTATIONS: '0' })).toThrow('PARLEY_GRAPHQL_MAX_MUTATIONS must be between 1 and 100000000, got 0');
    expect(() => loadConfig({ PARLEY_WS_MAX_PAYLOAD_BYTES: 'big' })).toThrow('PARLEY_WS_MAX_PAYLOAD_BYTES must be a whole number, got "big"');
  });

  test('empty values count as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', PARLEY_OWNER_EMAIL: '', REDIS_URL: '' })).toMatchObject({
      port: 9991,
      databaseUrl: null,
      ownerEmail: 'owner@example.com',
      redisUrl: null,
    });
  });
});

describe('accepted values', () => {
  test('are parsed and normalized', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/parley',
      DATABASE_URL: 'postgresql://parley:secret@db.internal:5432/parley',
      PARLEY_OWNER_EMAIL: ' boss@example.org ',
      PARLEY_OWNER_PASSWORD: 'long-enough',
      PARLEY_REALM_NAME: 'Acme',
      REDIS_URL: 'redis://cache:6379',
      PARLEY_HEARTBEAT_SECONDS: '30',
      PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '100',
    });
    expect(config).toMatchObject({
      maxFileUploadSizeMib: 100,
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/parley',
      databaseUrl: 'postgresql://parley:secret@db.internal:5432/parley',
      ownerEmail: 'boss@example.org',
      ownerPassword: 'long-enough',
      realmName: 'Acme',
      redisUrl: 'redis://cache:6379',
      heartbeatSeconds: 30,
      // A wildcard listen address is not one a client can reach.
      externalUrl: 'http://127.0.0.1:8080',
    });
  });

  test('request limits: body size in MiB, the rate-limiting switch, rules as seconds:requests pairs', () => {
    const config = loadConfig({
      PARLEY_MAX_REQUEST_BODY_MIB: '100',
      PARLEY_RATE_LIMITING: 'false',
      PARLEY_RATE_LIMIT_API_BY_USER: '86400:5000, 60:300',
      PARLEY_RATE_LIMIT_AUTHENTICATE_BY_IP: '3600:20',
    });
    expect(config.maxRequestBodyBytes).toBe(100 * 1024 * 1024);
    // Without its own setting the body limit leaves room for the largest file upload allowed.
    expect(loadConfig({ PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '200' }).maxRequestBodyBytes).toBe(201 * 1024 * 1024);
    expect(loadConfig({ PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '10' }).maxRequestBodyBytes).toBe(25 * 1024 * 1024);
    expect(config.rateLimiting).toBe(false);
    expect(config.rateLimitRules.api_by_user).toEqual([
      { seconds: 60, requests: 300 },
      { seconds: 86400, requests: 5000 },
    ]);
    expect(config.rateLimitRules.authenticate_by_ip).toEqual([{ seconds: 3600, requests: 20 }]);
    expect(config.rateLimitRules.api_by_ip).toEqual([{ seconds: 60, requests: 100 }]);
    expect(loadConfig({ PARLEY_RATE_LIMITING: 'TRUE' }).rateLimiting).toBe(true);
    expect(loadConfig({ PARLEY_TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ' }).trustedProxies).toEqual(['10.0.0.0/8', '::1']);
    expect(loadConfig({ PARLEY_RATE_LIMITING: '0' }).rateLimiting).toBe(false);
  });

  test('an S3 bucket for uploads: Amazon needs a region, another service an endpoint', () => {
    const keys = { PARLEY_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', PARLEY_S3_SECRET_ACCESS_KEY: 'secret/key+example' };
    expect(loadConfig({ PARLEY_S3_BUCKET: 'chat-files', PARLEY_S3_REGION: 'eu-west-1', ...keys }).s3).toEqual({
      bucket: 'chat-files',
      endpoint: null,
      region: 'eu-west-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret/key+example',
      forcePathStyle: false,
    });
    expect(
      loadConfig({ PARLEY_S3_BUCKET: 'chat-files', PARLEY_S3_ENDPOINT: 'https://minio.internal:9000/', PARLEY_S3_FORCE_PATH_STYLE: 'true', ...keys }).s3,
    ).toEqual({
      bucket: 'chat-files',
      endpoint: 'https://minio.internal:9000',
      region: 'us-east-1',
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'secret/key+example',
      forcePathStyle: true,
    });
  });

  test('the external URL loses its trailing slashes', () => {
    expect(loadConfig({ PARLEY_EXTERNAL_URL: 'https://chat.example.com/' }).externalUrl).toBe('https://chat.example.com');
  });
});

describe('bad values are refused with a message naming the variable', () => {
  test.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number, got "abc"'],
    [{ PORT: '-1' }, 'PORT must be a whole number, got "-1"'],
    [{ PORT: '80.5' }, 'PORT must be a whole number, got "80.5"'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535, got 70000'],
    [{ DATABASE_URL: 'not a url' }, 'DATABASE_URL is not a valid URL: "not a url"'],
    [{ DATABASE_URL: 'mysql://db/parley' }, 'DATABASE_URL must start with postgres:// or postgresql://, got "mysql://db/parley"'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL must start with redis:// or rediss://, got "http://cache"'],
    [{ PARLEY_EXTERNAL_URL: 'ftp://chat.example.com' }, 'PARLEY_EXTERNAL_URL must start with http:// or https://, got "ftp://chat.example.com"'],
    [{ PARLEY_OWNER_EMAIL: 'not-an-email' }, 'PARLEY_OWNER_EMAIL is not an email address: "not-an-email"'],
    [{ PARLEY_OWNER_EMAIL: 'owner@localhost' }, 'PARLEY_OWNER_EMAIL is not an email address: "owner@localhost"'],
    [{ PARLEY_OWNER_EMAIL: 'two@@example.com' }, 'PARLEY_OWNER_EMAIL is not an email address: "two@@example.com"'],
    [{ PARLEY_OWNER_PASSWORD: 'short' }, 'PARLEY_OWNER_PASSWORD must be at least 8 characters long'],
    [{ PARLEY_REALM_NAME: 'x'.repeat(41) }, 'PARLEY_REALM_NAME must be at most 40 characters long'],
    [{ PARLEY_HEARTBEAT_SECONDS: '0' }, 'PARLEY_HEARTBEAT_SECONDS must be between 1 and 3600, got 0'],
    [{ PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: 'lots' }, 'PARLEY_MAX_FILE_UPLOAD_SIZE_MIB must be a whole number, got "lots"'],
    [{ PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '2000000' }, 'PARLEY_MAX_FILE_UPLOAD_SIZE_MIB must be between 0 and 1000000, got 2000000'],
    [{ PARLEY_QUEUE_TIMEOUT_SECONDS: 'soon' }, 'PARLEY_QUEUE_TIMEOUT_SECONDS must be a whole number, got "soon"'],
    [{ PARLEY_MAX_REQUEST_BODY_MIB: '0' }, 'PARLEY_MAX_REQUEST_BODY_MIB must be between 1 and 1000001, got 0'],
    [{ PARLEY_TRUSTED_PROXIES: '10.0.0.1, proxy.internal' }, 'PARLEY_TRUSTED_PROXIES must list IP addresses or CIDR blocks, got "proxy.internal"'],
    [{ PARLEY_TRUSTED_PROXIES: '10.0.0.0/33' }, 'PARLEY_TRUSTED_PROXIES must list IP addresses or CIDR blocks, got "10.0.0.0/33"'],
    [{ PARLEY_RATE_LIMITING: 'maybe' }, 'PARLEY_RATE_LIMITING must be true or false, got "maybe"'],
    [{ PARLEY_RATE_LIMIT_API_BY_USER: '200' }, 'PARLEY_RATE_LIMIT_API_BY_USER must be seconds:requests pairs separated by commas (e.g. 60:200), got "200"'],
    [{ PARLEY_RATE_LIMIT_API_BY_IP: '60:0' }, 'PARLEY_RATE_LIMIT_API_BY_IP must be seconds:requests pairs separated by commas (e.g. 60:200), got "60:0"'],
    [{ PARLEY_DELETE_TOPIC_TIME_LIMIT_SECONDS: '3601' }, 'PARLEY_DELETE_TOPIC_TIME_LIMIT_SECONDS must be between 0 and 3600, got 3601'],
    [
      { PARLEY_PUSH_BOUNCER_URL: 'https://push.example.com' },
      'PARLEY_PUSH_BOUNCER_URL, PARLEY_PUSH_BOUNCER_ORG_ID and PARLEY_PUSH_BOUNCER_ORG_KEY must be set together',
    ],
    [
      { PARLEY_PUSH_BOUNCER_URL: 'ftp://push.example.com', PARLEY_PUSH_BOUNCER_ORG_ID: 'x', PARLEY_PUSH_BOUNCER_ORG_KEY: 'y' },
      'PARLEY_PUSH_BOUNCER_URL must start with http:// or https://',
    ],
    [
      { PARLEY_PUSH_BOUNCER_URL: 'https://push.example.com', PARLEY_PUSH_BOUNCER_ORG_ID: 'server-1', PARLEY_PUSH_BOUNCER_ORG_KEY: 'k'.repeat(32) },
      'PARLEY_PUSH_BOUNCER_ORG_ID must be a UUID, got "server-1"',
    ],
    [
      {
        PARLEY_PUSH_BOUNCER_URL: 'https://push.example.com',
        PARLEY_PUSH_BOUNCER_ORG_ID: '6cde5f7a-1f7e-4978-9716-49f69ebfc9fe',
        PARLEY_PUSH_BOUNCER_ORG_KEY: 'short',
      },
      'PARLEY_PUSH_BOUNCER_ORG_KEY must be at least 16 printable characters',
    ],
    [{ PARLEY_SCHEDULER_POLL_MS: '5' }, 'PARLEY_SCHEDULER_POLL_MS must be between 10 and 3600000, got 5'],
    [{ PARLEY_SCHEDULER_POLL_MS: 'often' }, 'PARLEY_SCHEDULER_POLL_MS must be a whole number, got "often"'],
    [{ PARLEY_LDAP_URL: 'http://ldap.example' }, 'PARLEY_LDAP_URL must start with ldap:// or ldaps://, got "http://ldap.example"'],
    [{ PARLEY_LDAP_URL: 'ldap://ldap.example' }, 'PARLEY_LDAP_SEARCH_BASE must be set when PARLEY_LDAP_URL is'],
    [
      { PARLEY_LDAP_URL: 'ldap://ldap.example', PARLEY_LDAP_SEARCH_BASE: 'dc=x', PARLEY_LDAP_FILTER: '(uid=*)' },
      'PARLEY_LDAP_FILTER must be an LDAP filter containing %(user)s, got "(uid=*)"',
    ],
    [
      { PARLEY_LDAP_URL: 'ldap://ldap.example', PARLEY_LDAP_SEARCH_BASE: 'dc=x', PARLEY_LDAP_ATTR_MAP: 'phone=tel' },
      'PARLEY_LDAP_ATTR_MAP must be field=attribute pairs (full_name, email) separated by commas, got "phone=tel"',
    ],
    [{ PARLEY_OIDC_ISSUER: 'https://id.example' }, 'PARLEY_OIDC_CLIENT_ID must be set when PARLEY_OIDC_ISSUER is'],
    [{ PARLEY_OIDC_ISSUER: 'https://id.example', PARLEY_OIDC_CLIENT_ID: 'c' }, 'PARLEY_OIDC_CLIENT_SECRET must be set when PARLEY_OIDC_ISSUER is'],
    [
      { PARLEY_RATE_LIMIT_SENDS_EMAIL_BY_IP: 'x' },
      'PARLEY_RATE_LIMIT_SENDS_EMAIL_BY_IP must be seconds:requests pairs separated by commas (e.g. 60:200), got "x"',
    ],
    [{ PARLEY_UPLOAD_QUOTA_MIB: '-1' }, 'PARLEY_UPLOAD_QUOTA_MIB must be a whole number, got "-1"'],
    // A shorter grace could take the file of an upload whose row is still being written.
    [{ PARLEY_UPLOAD_SWEEP_GRACE_SECONDS: '5' }, 'PARLEY_UPLOAD_SWEEP_GRACE_SECONDS must be between 300 and 2592000, got 5'],
    [{ PARLEY_S3_ENDPOINT: 'http://127.0.0.1:9000' }, 'PARLEY_S3_BUCKET must be set when PARLEY_S3_ENDPOINT is'],
    [{ PARLEY_S3_SECRET_ACCESS_KEY: 'secret' }, 'PARLEY_S3_BUCKET must be set when PARLEY_S3_SECRET_ACCESS_KEY is'],
    [{ PARLEY_S3_BUCKET: 'files' }, 'PARLEY_S3_REGION must be set when PARLEY_S3_BUCKET is (or PARLEY_S3_ENDPOINT for a non-Amazon store)'],
    [{ PARLEY_S3_BUCKET: 'files', PARLEY_S3_REGION: 'eu-west-1' }, 'PARLEY_S3_ACCESS_KEY_ID must be set when PARLEY_S3_BUCKET is'],
    [
      { PARLEY_S3_BUCKET: 'files', PARLEY_S3_REGION: 'eu-west-1', PARLEY_S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' },
      'PARLEY_S3_SECRET_ACCESS_KEY must be set when PARLEY_S3_BUCKET is',
    ],
    [
      { PARLEY_S3_BUCKET: 'my/files', PARLEY_S3_REGION: 'eu-west-1' },
      'PARLEY_S3_BUCKET must be a bucket name (3 to 63 letters, digits, dots, hyphens), got "my/files"',
    ],
    [{ PARLEY_S3_BUCKET: 'files', PARLEY_S3_REGION: 'Europe West' }, 'PARLEY_S3_REGION must be a region name such as eu-west-1, got "Europe West"'],
    [{ PARLEY_S3_BUCKET: 'files', PARLEY_S3_ENDPOINT: 'minio:9000' }, 'PARLEY_S3_ENDPOINT must start with http:// or https://, got "minio:9000"'],
    [
      {
        PARLEY_S3_BUCKET: 'files',
        PARLEY_S3_ENDPOINT: 'http://minio:9000',
        PARLEY_S3_ACCESS_KEY_ID: 'k',
        PARLEY_S3_SECRET_ACCESS_KEY: 's',
        PARLEY_S3_FORCE_PATH_STYLE: 'yes',
      },
      'PARLEY_S3_FORCE_PATH_STYLE must be true or false, got "yes"',
    ],
  ])('%j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});

describe('LOG_LEVEL and PARLEY_CORS_ORIGINS', () => {
  test('are read and checked', () => {
    expect(loadConfig({ LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow('LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"');
    expect(loadConfig({ PARLEY_CORS_ORIGINS: 'https://a.example, http://localhost:3000/' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:3000',
    ]);
    expect(loadConfig({ PARLEY_CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(() => loadConfig({ PARLEY_CORS_ORIGINS: 'https://a.example/path' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_CORS_ORIGINS: 'a.example' })).toThrow('PARLEY_CORS_ORIGINS must list origins');
  });
});

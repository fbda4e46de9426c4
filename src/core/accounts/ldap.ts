import { Client, EqualityFilter, InvalidCredentialsError } from 'ldapts';
import type { LdapConfig } from '../../config';
import { describeFailure } from '../../failure-log';

/**
 * Password logins against a directory server. The username is looked up with the configured
 * filter under the search base (bound as the service account, or anonymously); the password is
 * then checked by binding as the entry found. Entries outside the search base are never found.
 */
export interface DirectoryPerson {
  dn: string;
  /** The address from the configured attribute, or the username when there is none. */
  email: string;
  fullName: string;
}

const TIMEOUT_MS = 5000;

const newClient = (config: LdapConfig) => new Client({ url: config.url, timeout: TIMEOUT_MS, connectTimeout: TIMEOUT_MS });

/** The filter with the username as one escaped value (never as filter syntax). */
function filterFor(config: LdapConfig, username: string): string {
  const escaped = new EqualityFilter({ attribute: 'x', value: username }).toString().slice('(x='.length, -1);
  return config.filter.split('%(user)s').join(escaped);
}

const first = (value: unknown): string | undefined => {
  const one = Array.isArray(value) ? value[0] : value;
  if (one === undefined || one === null) return undefined;
  return Buffer.isBuffer(one) ? one.toString('utf8') : String(one);
};

async function findPerson(config: LdapConfig, username: string): Promise<DirectoryPerson | null> {
  const client = newClient(config);
  try {
    if (config.bindDn !== null) await client.bind(config.bindDn, config.bindPassword ?? '');
    const attributes = [config.fullNameAttr, ...(config.emailAttr ? [config.emailAttr] : [])];
    const { searchEntries } = await client.search(config.searchBase, { scope: 'sub', filter: filterFor(config, username), attributes, sizeLimit: 2 });
    // Ambiguous usernames log nobody in.
    if (searchEntries.length !== 1) return null;
    const entry = searchEntries[0];
    const email = config.emailAttr ? first(entry[config.emailAttr]) : username;
    if (!email) return null;
    return { dn: entry.dn, email: email.trim(), fullName: (first(entry[config.fullNameAttr]) ?? '').trim() };
  } finally {
    await client.unbind().catch(() => undefined);
  }
}

/** The directory entry `username` and `password` belong to, or null. */
export async function ldapAuthenticate(config: LdapConfig, username: string, password: string): Promise<DirectoryPerson | null> {
  // An empty password is an unauthenticated bind, which servers accept: never a login.
  if (username.trim() === '' || password === '') return null;
  try {
    const person = await findPerson(config, username.trim());
    if (!person) return null;
    const client = newClient(config);
    try {
      await client.bind(person.dn, password);
      return person;
    } finally {
      await client.unbind().catch(() => undefined);
    }
  } catch (error) {
    if (error instanceof InvalidCredentialsError) return null;
    // The directory being unreachable is the operator's problem; the user just cannot log in.
    // Only the failure's kind is logged, never the username or password.
    console.error(`LDAP login failed: ${describeFailure(error).split('\n')[0]}`);
    return null;
  }
}

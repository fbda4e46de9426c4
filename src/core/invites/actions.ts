import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { deliverNow } from '../deliveries/attempt';
import { insertDeliveries } from '../deliveries/store';
import { Realm } from '../realm/model';
import { createUser } from '../users/actions';
import { User } from '../users/model';
import { Role, ROLE_VALUES } from '../users/roles';
import {
  canCreateMultiuseInvite,
  canInviteByEmail,
  findManageableEmailInvite,
  findManageableMultiuseInvite,
  generateInviteKey,
  invitationFailed,
  requireMemberOrAdmin,
  requireRoleWithinOwn,
  requireWelcomeTextAllowed,
} from './access';
import { resolveInviteChannels, subscribeInvitedUser } from './channels';
import { EmailRefusal, emailDomainCheck } from '../realm-domains/store';
import { invitationEmail } from './emails';
import { addInvitedUserToGroups, resolveInviteGroups } from './groups';
import { Invitation, InviteStatus, isUsable } from './model';
import { notifyReferrerOfJoin } from './notify';
import { inviteLink } from './view';
import { listParam } from '../../db/lists';
import { isValidEmail } from '../../validation/email';

export { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from './model';

export interface InvitationOptions {
  /** undefined: the server's default validity; null: never expires. */
  expiresInMinutes: number | null | undefined;
  inviteAs: number;
  streamIds: number[];
  groupIds: number[] | null;
  includeRealmDefaultSubscriptions: boolean;
  /** null: the organization's default welcome message. */
  welcomeMessageCustomText: string | null;
}

export interface EmailInvitationRequest extends InvitationOptions {
  inviteeEmails: string;
  notifyReferrerOnJoin: boolean;
}

/**
 * Addresses separated by commas or newlines; "Name <address>" gives the address. Empty entries
 * (as in "a@x.com,\nb@x.com") are skipped, as Zulip's server does.
 */
export function parseInviteeEmails(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    const email = (named ? named[1] : part).trim();
    if (email !== '' && !out.includes(email)) out.push(email);
  }
  return out;
}

function expiryFrom(deps: AppDeps, minutes: number | null | undefined, now: Date): Date | null {
  const validity = minutes === undefined ? deps.config.invitationValidityMinutes : minutes;
  return validity === null ? null : new Date(now.getTime() + validity * 60_000);
}

function checkInviteAs(inviteAs: number): void {
  if (!(ROLE_VALUES as readonly number[]).includes(inviteAs)) throw errors.badRequest('Invalid invite_as');
}

/** Admins (and admin bots) and the invitation's creator learn that the invitation list changed. */
async function notifyInvitesChanged(uow: UnitOfWork, referrerId: number | null): Promise<void> {
  const admins: number[] = await uow.trx('users').where({ realm_id: uow.realmId, is_active: true }).where('role', '<=', Role.ADMINISTRATOR).pluck('id');
  uow.emit({ type: 'invites_changed' }, referrerId === null ? admins : [...admins, referrerId]);
}

const DAILY_LIMIT_MSG =
  'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.';

/** The organization's daily cap on invitation emails. Locks the realm row so senders queue up. */
async function checkDailyLimit(deps: AppDeps, db: Knex, count: number): Promise<void> {
  await db('realms').where('id', deps.realmId).forUpdate().first('id');
  const since = new Date(Date.now() - 24 * 60 * 60 * 1000);
  const row = (await db('invitation_sends').where('realm_id', deps.realmId).where('sent_at', '>', since).count('id as n').first()) as {
    n: number | string;
  };
  if (Number(row.n) + count > deps.config.invitesDailyMax) {
    throw invitationFailed({ msg: DAILY_LIMIT_MSG, errors: [], sentInvitations: false, dailyLimitReached: true });
  }
}

async function recordSend(deps: AppDeps, db: Knex, invitationId: number): Promise<void> {
  await db('invitation_sends').insert({ realm_id: deps.realmId, invitation_id: invitationId });
}

/**
 * The invitation emails, as outbox items written with the invitations (in `db`, their
 * transaction); they are sent right after the commit (deliverNow), and retried by the delivery
 * worker if that fails. The invitation stands either way.
 */
async function queueInvitations(deps: AppDeps, db: Knex, referrer: User, invites: Invitation[]): Promise<number[]> {
  const realm = await Realm.query(db).findById(deps.realmId);
  const emails = invites.map((invite) =>
    invitationEmail(deps.config, {
      to: invite.email!,
      key: invite.key,
      referrerName: referrer.full_name,
      referrerEmail: referrer.delivery_email,
      realmName: realm?.name ?? deps.config.realmName,
      expiryDate: invite.expiry_date ? new Date(invite.expiry_date) : null,
    }),
  );
  return insertDeliveries(
    db,
    deps.realmId,
    emails.map((email) => ({ kind: 'email' as const, payload: { ...email } })),
  );
}

const listColumn = (ids: number[]) => JSON.stringify(ids) as unknown as number[];

/** Checks shared by email invitations and reusable links, in Zulip's order. */
async function checkOptions(db: Knex, deps: AppDeps, actor: User, options: InvitationOptions) {
  const streamIds = await resolveInviteChannels(db, deps.realmId, actor, options.streamIds);
  const groupIds = await resolveInviteGroups(db, deps.realmId, actor, options.groupIds);
  requireWelcomeTextAllowed(actor, options.welcomeMessageCustomText);
  return { streamIds, groupIds };
}

/**
 * POST /invites. Every address is checked first: a malformed one stops everything. Addresses
 * that already have accounts are skipped; the others are invited, and the skipped ones are then
 * reported as a partial failure. Answers the invitations created.
 */
export async function inviteUsers(deps: AppDeps, actor: User, request: EmailInvitationRequest): Promise<Invitation[]> {
  requireMemberOrAdmin(actor);
  if (!(await canInviteByEmail(deps.knex, actor))) throw errors.insufficientPermission();
  checkInviteAs(request.inviteAs);
  requireRoleWithinOwn(actor, request.inviteAs);
  const emails = parseInviteeEmails(request.inviteeEmails);
  if (emails.length === 0) throw errors.badRequest('You must specify at least one email address.');

  const { created, skipped, mailIds } = await inTransaction(deps, deps.realmId, async (uow) => {
    const { streamIds, groupIds } = await checkOptions(uow.trx, deps, actor, request);
    await checkDailyLimit(deps, uow.trx, emails.length);

    const invalid: [string, string, boolean][] = [];
    const valid: string[] = [];
    const refusal = await emailDomainCheck(uow.trx, deps.realmId);
    for (const email of emails) {
      const refused = isValidEmail(email) ? refusal(email) : 'invalid';
      if (refused) invalid.push([email, INVITE_REFUSALS[refused], false]);
      else valid.push(email);
    }
    const existing = valid.length
      ? await User.query(uow.trx)
          .where('realm_id', deps.realmId)
          .whereRaw('lower(delivery_email) = ANY(?::text[])', [
            listParam(
              valid.map((e) => e.toLowerCase()),
              'text',
            ),
          ])
      : [];
    const byEmail = new Map(existing.map((u) => [u.delivery_email.toLowerCase(), u]));
    const skipped: [string, string, boolean][] = [];
    const toInvite: string[] = [];
    for (const email of valid) {
      const user = byEmail.get(email.toLowerCase());
      if (!user) toInvite.push(email);
      else if (user.is_active) skipped.push([email, 'Already has an account.', false]);
      else skipped.push([email, 'Account has been deactivated.', true]);
    }
    if (invalid.length > 0) {
      throw invitationFailed({
        msg: "Some emails did not validate, so we didn't send any invitations.",
        errors: [...invalid, ...skipped],
        sentInvitations: false,
      });
    }
    if (toInvite.length === 0) {
      throw invitationFailed({ msg: "We weren't able to invite anyone.", errors: skipped, sentInvitations: false });
    }

    const now = new Date();
    const created: Invitation[] = [];
    for (const email of toInvite) {
      const invite = await Invitation.query(uow.trx).insertAndFetch({
        realm_id: deps.realmId,
        is_multiuse: false,
        email,
        referred_by_id: actor.id,
        invited_as: request.inviteAs,
        stream_ids: listColumn(streamIds),
        group_ids: listColumn(groupIds),
        include_realm_default_subscriptions: request.includeRealmDefaultSubscriptions,
        notify_referrer_on_join: request.notifyReferrerOnJoin,
        welcome_message_custom_text: request.welcomeMessageCustomText,
        key: generateInviteKey(),
        invited_at: now,
        expiry_date: expiryFrom(deps, request.expiresInMinutes, now),
      });
      await recordSend(deps, uow.trx, invite.id);
      created.push(invite);
    }
    const mailIds = await queueInvitations(deps, uow.trx, actor, created);
    await notifyInvitesChanged(uow, actor.id);
    return { created, skipped, mailIds };
  });

  await deliverNow(deps, mailIds);
  if (skipped.length > 0) {
    throw invitationFailed({
      msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      errors: skipped,
      sentInvitations: true,
    });
  }
  return created;
}

/** POST /invites/multiuse: a reusable link; the response carries its URL. */
export async function createMultiuseInvite(deps: AppDeps, actor: User, options: InvitationOptions): Promise<string> {
  requireMemberOrAdmin(actor);
  if (!(await canCreateMultiuseInvite(deps.knex, actor))) throw errors.insufficientPermission();
  checkInviteAs(options.inviteAs);
  requireRoleWithinOwn(actor, options.inviteAs);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const { streamIds, groupIds } = await checkOptions(uow.trx, deps, actor, options);
    const now = new Date();
    const invite = await Invitation.query(uow.trx).insertAndFetch({
      realm_id: deps.realmId,
      is_multiuse: true,
      email: null,
      referred_by_id: actor.id,
      invited_as: options.inviteAs,
      stream_ids: listColumn(streamIds),
      group_ids: listColumn(groupIds),
      include_realm_default_subscriptions: options.includeRealmDefaultSubscriptions,
      notify_referrer_on_join: true,
      welcome_message_custom_text: options.welcomeMessageCustomText,
      key: generateInviteKey(),
      invited_at: now,
      expiry_date: expiryFrom(deps, options.expiresInMinutes, now),
    });
    await notifyInvitesChanged(uow, actor.id);
    return inviteLink(deps.config, invite.key);
  });
}

/** DELETE /invites/{id}. Revoking an invitation that is no longer active changes nothing. */
export async function revokeEmailInvite(deps: AppDeps, actor: User, inviteId: number): Promise<void> {
  requireMemberOrAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const invite = await findManageableEmailInvite(uow.trx, actor, inviteId);
    if (invite.status === InviteStatus.ACTIVE) {
      await Invitation.query(uow.trx).patch({ status: InviteStatus.REVOKED }).where('id', invite.id);
    }
    await notifyInvitesChanged(uow, invite.referred_by_id);
  });
}

/** DELETE /invites/multiuse/{id}. */
export async function revokeMultiuseInvite(deps: AppDeps, actor: User, inviteId: number): Promise<void> {
  requireMemberOrAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const invite = await findManageableMultiuseInvite(uow.trx, actor, inviteId);
    await Invitation.query(uow.trx).patch({ status: InviteStatus.REVOKED }).where('id', invite.id);
    await notifyInvitesChanged(uow, invite.referred_by_id);
  });
}

/**
 * Withdraws every pending invitation (email and reusable link) a user made; deactivating the user
 * does this, as in Zulip. Administrators are told when anything changed.
 */
export async function revokeInvitationsBy(uow: UnitOfWork, referrerId: number): Promise<void> {
  const revoked = await Invitation.query(uow.trx)
    .patch({ status: InviteStatus.REVOKED })
    .where({ realm_id: uow.realmId, referred_by_id: referrerId, status: InviteStatus.ACTIVE });
  if (revoked > 0) await notifyInvitesChanged(uow, null);
}

/**
 * POST /invites/{id}/resend: the same link again, counted against the daily limit. An invitation
 * that was used, revoked or has expired cannot be resent. Answers the invitation.
 */
export async function resendEmailInvite(deps: AppDeps, actor: User, inviteId: number): Promise<Invitation> {
  requireMemberOrAdmin(actor);
  const { invite, emails } = await inTransaction(deps, deps.realmId, async (uow) => {
    const found = await findManageableEmailInvite(uow.trx, actor, inviteId);
    if (!isUsable(found)) throw errors.badRequest('No such invitation');
    await checkDailyLimit(deps, uow.trx, 1);
    await recordSend(deps, uow.trx, found.id);
    const referrer = (await User.query(uow.trx).findById(found.referred_by_id)) ?? actor;
    return { invite: found, emails: await queueInvitations(deps, uow.trx, referrer, [found]) };
  });
  await deliverNow(deps, emails);
  return invite;
}

export const unknownInviteLink = () => new ApiError('NOT_FOUND', "We couldn't find your confirmation link in the system.", 404);
export const unusableInviteLink = () => errors.badRequest('The confirmation link has expired or been deactivated.');

/** The invitation behind a link key, if the link can still be used. */
export async function findUsableInvite(deps: AppDeps, key: string): Promise<Invitation> {
  const invite = await Invitation.query(deps.knex).findOne({ realm_id: deps.realmId, key });
  if (!invite) throw unknownInviteLink();
  if (!isUsable(invite)) throw unusableInviteLink();
  return invite;
}

export interface Acceptance {
  fullName: string;
  /** null: an account without a password of its own (single sign-on). */
  password: string | null;
  /** For reusable links; an email invitation is for its own address. */
  email?: string;
}

/** Why an invitation to an address is refused, as Zulip words it per address. */
const INVITE_REFUSALS: Record<EmailRefusal | 'invalid', string> = {
  invalid: 'Invalid address.',
  outside_domain: 'Outside your domain.',
  disposable: 'Please use your real email address.',
  plus: 'Email addresses containing + are not allowed.',
};

function joinRefusal(refused: EmailRefusal, email: string): string {
  if (refused === 'disposable') return 'Please use your real email address.';
  if (refused === 'plus') return 'Email addresses containing + are not allowed in this organization.';
  return `The organization you are trying to join using ${email} only allows users with e-mail addresses within the organization. Please use a different e-mail address.`;
}

/**
 * Creates the account an invitation offers: the invited role, then the invitation's groups and
 * channels. Other pending email invitations to the same address are retired.
 */
export async function acceptInvitation(deps: AppDeps, key: string, input: Acceptance): Promise<{ user: User; apiKey: string }> {
  const invite = await findUsableInvite(deps, key);
  const email = invite.is_multiuse ? input.email : invite.email!;
  if (email === undefined || email.trim() === '') throw errors.missing('email');
  const refused = invite.is_multiuse ? (await emailDomainCheck(deps.knex, deps.realmId))(email) : null;
  if (refused) throw errors.badRequest(joinRefusal(refused, email));
  const created = await createUser(deps, null, {
    email,
    fullName: input.fullName,
    password: input.password,
    role: invite.invited_as as (typeof ROLE_VALUES)[number],
    // The invitation says whether the default channels are wanted.
    defaultChannels: false,
    joining: true,
    invitationWelcomeText: invite.welcome_message_custom_text,
  });
  await inTransaction(deps, deps.realmId, async (uow) => {
    const user = created.user;
    if (!invite.is_multiuse) {
      await Invitation.query(uow.trx).patch({ status: InviteStatus.USED, used_by_id: user.id }).where('id', invite.id);
    }
    await Invitation.query(uow.trx)
      .patch({ status: InviteStatus.REVOKED })
      .where({ realm_id: deps.realmId, is_multiuse: false, status: InviteStatus.ACTIVE })
      .whereRaw('lower(email) = lower(?)', [user.delivery_email]);
    await addInvitedUserToGroups(uow, user, invite.group_ids);
    await subscribeInvitedUser(uow, user, invite.stream_ids, invite.include_realm_default_subscriptions);
    if (invite.notify_referrer_on_join) await notifyReferrerOfJoin(deps, uow, invite.referred_by_id, user);
    await notifyInvitesChanged(uow, invite.referred_by_id);
  });
  return created;
}

import {
  branchIsNotifiable,
  EMPTY_SHA,
  issueMessage,
  prOrIssueMessage,
  pushCommitsMessage,
  pushTagMessage,
  removeBranchMessage,
  topicWithBranch,
  topicWithPrOrIssue,
} from './git';
import { Field, missingEventHeader, payloadOf, unsupportedEvent } from './payload';
import type { Integration, WebhookMessage, WebhookRequest } from './types';
import { BRANCHES } from './url-options';

/** GitLab (X-Gitlab-Event): pushes, tag pushes, issues, merge requests. */
const NAME = 'GitLab';

const repoName = (p: Field) => (p.has('project') ? p.get('project').get('name').str() : p.get('repository').get('name').str());
const branchOf = (p: Field) =>
  p
    .get('ref')
    .str()
    .replace(/^refs\/heads\//, '');
const userName = (p: Field) => p.get('user').get('name').str();

/** Assignees by name (Zulip shows their names, not usernames). */
function assignees(p: Field): string[] {
  if (p.has('assignees'))
    return p
      .get('assignees')
      .list()
      .map((a) => a.get('name').str());
  const one = p.opt('assignee');
  return one ? [one.get('name').str()] : [];
}

function push(p: Field, branches: string | undefined): WebhookMessage | null {
  const branch = branchOf(p);
  if (!branchIsNotifiable(branch, branches)) return null;
  const user = p.get('user_name').str();
  const topic = topicWithBranch(repoName(p), branch);
  if (p.opt('after')?.str() === EMPTY_SHA) return { topic, body: removeBranchMessage(user, branch), eventType: 'Push Hook' };
  const compareUrl = `${p.get('repository').get('homepage').str()}/-/compare/${p.get('before').str()}...${p.get('after').str()}`;
  const commits = p
    .get('commits')
    .list()
    .map((c) => ({ name: c.get('author').get('name').str(), sha: c.get('id').str(), message: c.get('message').str(), url: c.get('url').str() }));
  return { topic, body: pushCommitsMessage(user, compareUrl, branch, commits), eventType: 'Push Hook' };
}

function tagPush(p: Field): WebhookMessage {
  const tag = p
    .get('ref')
    .str()
    .replace(/^refs\/tags\//, '');
  const action = p.opt('checkout_sha')?.truthy() ? 'pushed' : 'removed';
  return { topic: repoName(p), body: pushTagMessage(p.get('user_name').str(), tag, null, action), eventType: 'Tag Push Hook' };
}

const ISSUE_ACTIONS: Record<string, string> = { close: 'closed', reopen: 'reopened', update: 'updated' };

function issue(p: Field, event: string, action: string, includeTitle: boolean): WebhookMessage {
  const attrs = p.get('object_attributes');
  const number = attrs.get('iid').int();
  const title = attrs.get('title').str();
  const topic = topicWithPrOrIssue(repoName(p), 'issue', number, title);
  const common = { userName: userName(p), url: attrs.get('url').str(), number, title: includeTitle ? title : null };
  if (action === 'open') {
    // Hidden HTML comments (issue templates) are left out, as Zulip does.
    const description =
      attrs
        .opt('description')
        ?.str()
        .replace(/<!--[\s\S]*?-->/g, '')
        .trimEnd() ?? null;
    return { topic, body: issueMessage({ ...common, action: 'created', message: description, assignees: assignees(p) }), eventType: event };
  }
  const verb = ISSUE_ACTIONS[action];
  if (!verb) throw unsupportedEvent(NAME, event);
  return { topic, body: issueMessage({ ...common, action: verb }), eventType: event };
}

const MR_ACTIONS: Record<string, string> = { approved: 'approved', merge: 'merged', close: 'closed', reopen: 'reopened', unapproved: 'unapproved' };

function mergeRequest(p: Field, event: string, action: string, includeTitle: boolean): WebhookMessage {
  const attrs = p.get('object_attributes');
  const number = attrs.get('iid').int();
  const title = attrs.get('title').str();
  const topic = topicWithPrOrIssue(repoName(p), 'MR', number, title);
  const common = { userName: userName(p), url: attrs.get('url').str(), number, type: 'MR', title: includeTitle ? title : null };
  const openedOrUpdated = (verb: string) =>
    prOrIssueMessage({
      ...common,
      action: verb,
      targetBranch: verb === 'created' ? attrs.get('source_branch').str() : null,
      baseBranch: verb === 'created' ? attrs.get('target_branch').str() : null,
      message: attrs.opt('description')?.str() ?? null,
      assignees: assignees(p),
    });
  if (action === 'open') return { topic, body: openedOrUpdated('created'), eventType: event };
  if (action === 'update') {
    const body = attrs.opt('oldrev')?.truthy() ? prOrIssueMessage({ ...common, action: 'added commit(s) to' }) : openedOrUpdated('updated');
    return { topic, body, eventType: event };
  }
  const verb = MR_ACTIONS[action];
  if (!verb) throw unsupportedEvent(NAME, event);
  return { topic, body: prOrIssueMessage({ ...common, action: verb }), eventType: event };
}

export const gitlab: Integration = {
  name: 'gitlab',
  displayName: NAME,
  urlOptions: [BRANCHES],
  allEventTypes: [
    'Push Hook',
    'Tag Push Hook',
    ...['open', 'close', 'reopen', 'update'].flatMap((a) => [`Issue Hook ${a}`, `Confidential Issue Hook ${a}`]),
    ...['open', 'update', 'approved', 'unapproved', 'merge', 'close', 'reopen'].map((a) => `Merge Request Hook ${a}`),
  ],
  handle({ payload, headers, params, includeTitle }: WebhookRequest): WebhookMessage[] {
    const header = headers['x-gitlab-event'];
    if (typeof header !== 'string') throw missingEventHeader('X-GitLab-Event');
    const p = payloadOf(payload);
    let message: WebhookMessage | null;
    if (header === 'Push Hook') message = push(p, params.branches);
    else if (header === 'Tag Push Hook') message = tagPush(p);
    else if (header === 'Issue Hook' || header === 'Confidential Issue Hook' || header === 'Merge Request Hook') {
      const action = p.get('object_attributes').opt('action')?.str() ?? 'open';
      const event = `${header} ${action}`;
      message = header === 'Merge Request Hook' ? mergeRequest(p, event, action, includeTitle) : issue(p, event, action, includeTitle);
    } else throw unsupportedEvent(NAME, header);
    return message ? [message] : [];
  },
};

import {
  branchIsNotifiable,
  CommitData,
  issueMessage,
  prOrIssueMessage,
  pushCommitsMessage,
  pushTagMessage,
  setupMessage,
  topicWithBranch,
  topicWithPrOrIssue,
} from './git';
import { Field, missingEventHeader, payloadOf, unsupportedEvent } from './payload';
import type { Integration, WebhookMessage, WebhookRequest } from './types';
import { BRANCHES, IGNORE_PRIVATE_REPOSITORIES } from './url-options';

/** GitHub (X-GitHub-Event): pushes, issues and their comments, pull requests, ping. */
const NAME = 'GitHub';
const IGNORED_PULL_REQUEST_ACTIONS = ['approved', 'converted_to_draft', 'labeled', 'review_request_removed', 'unlabeled'];
const IGNORED_EVENTS = ['check_suite', 'label', 'meta', 'milestone', 'organization', 'project_card', 'repository_vulnerability_alert'];

const sender = (p: Field) => p.get('sender').get('login').str();
const repoName = (p: Field) => p.get('repository').get('name').str();
const branchOf = (ref: string) => ref.replace(/^refs\/heads\//, '');

function pushMessage(p: Field, branches: string | undefined): WebhookMessage | null {
  const ref = p.get('ref').str();
  if (ref.startsWith('refs/heads/gh-readonly-queue/')) return null;
  if (!ref.startsWith('refs/heads/')) {
    const tag = ref.replace(/^refs\/tags\//, '');
    return { topic: repoName(p), body: pushTagMessage(sender(p), tag, null, p.get('created').bool() ? 'pushed' : 'removed'), eventType: 'push_tags' };
  }
  const branch = branchOf(ref);
  if (!branchIsNotifiable(branch, branches)) return null;
  const commits: CommitData[] = p
    .get('commits')
    .list()
    .map((c) => {
      const author = c.get('author');
      return {
        name: author.opt('username')?.str() || author.get('name').str(),
        sha: c.get('id').str(),
        url: c.get('url').str(),
        message: c.get('message').str(),
      };
    });
  const body = pushCommitsMessage(sender(p), p.get('compare').str(), branch, commits, { deleted: p.get('deleted').bool(), forcePush: p.get('forced').bool() });
  return { topic: topicWithBranch(repoName(p), branch), body, eventType: 'push_commits' };
}

function issueTopic(p: Field): string {
  const issue = p.get('issue');
  const type = issue.has('pull_request') ? 'PR' : 'issue';
  return topicWithPrOrIssue(repoName(p), type, issue.get('number').int(), issue.get('title').str());
}

function issuesMessage(p: Field, includeTitle: boolean): WebhookMessage | null {
  const action = p.get('action').str();
  if (['labeled', 'unlabeled', 'milestoned', 'demilestoned', 'transferred', 'pinned', 'unpinned', 'locked', 'unlocked'].includes(action)) {
    throw unsupportedEvent(NAME, `issues:${action}`);
  }
  const issue = p.get('issue');
  const body = issueMessage({
    userName: sender(p),
    action,
    url: issue.get('html_url').str(),
    number: issue.get('number').int(),
    message: action === 'assigned' || action === 'unassigned' ? null : issue.get('body').strOrNull(),
    title: includeTitle ? issue.get('title').str() : null,
    assigneeUpdated: p.has('assignee') ? p.get('assignee').get('login').str() : null,
  });
  return { topic: issueTopic(p), body, eventType: 'issues' };
}

function issueCommentMessage(p: Field, includeTitle: boolean): WebhookMessage {
  const issue = p.get('issue');
  const comment = p.get('comment');
  const action = p.get('action').str();
  const verb = `${action === 'created' ? '[commented]' : `${action} a [comment]`}(${comment.get('html_url').str()}) on`;
  const body = prOrIssueMessage({
    userName: sender(p),
    action: verb,
    url: issue.get('html_url').str(),
    number: issue.get('number').int(),
    message: comment.get('body').str(),
    title: includeTitle ? issue.get('title').str() : null,
    type: issue.has('pull_request') ? 'PR' : 'issue',
  });
  return { topic: issueTopic(p), body, eventType: 'issue_comment' };
}

function pullRequestMessage(p: Field, includeTitle: boolean): WebhookMessage | null {
  const pr = p.get('pull_request');
  let action = p.get('action').str();
  const topic = topicWithPrOrIssue(repoName(p), 'PR', pr.get('number').int(), pr.get('title').str());
  const common = {
    userName: sender(p),
    url: pr.get('html_url').str(),
    number: pr.get('number').int(),
    title: includeTitle ? pr.get('title').str() : null,
  };
  if (['opened', 'reopened', 'synchronize', 'edited'].includes(action)) {
    if (action === 'synchronize') action = 'updated';
    const changes = p.opt('changes');
    const description = changes?.has('body') || action === 'opened' ? pr.get('body').strOrNull() : null;
    const opened = action === 'opened';
    const body = prOrIssueMessage({
      ...common,
      action,
      targetBranch: opened ? pr.get('head').get('label').str() : null,
      baseBranch: opened ? pr.get('base').get('label').str() : null,
      message: description,
      assignee: pr.opt('assignee')?.get('login').str() ?? null,
    });
    return { topic, body, eventType: opened || action === 'reopened' ? 'opened_pull_request' : 'updated_pull_request' };
  }
  if (action === 'closed') {
    const body = prOrIssueMessage({ ...common, action: pr.get('merged').bool() ? 'merged' : 'closed without merge' });
    return { topic, body, eventType: 'closed_pull_request' };
  }
  if (action === 'assigned' || action === 'unassigned') {
    const body = prOrIssueMessage({ ...common, action, assigneeUpdated: p.get('assignee').get('login').str() });
    return { topic, body, eventType: 'assigned_or_unassigned_pull_request' };
  }
  if (IGNORED_PULL_REQUEST_ACTIONS.includes(action)) return null;
  throw unsupportedEvent(NAME, `pull_request:${action}`);
}

export const github: Integration = {
  name: 'github',
  displayName: NAME,
  urlOptions: [BRANCHES, IGNORE_PRIVATE_REPOSITORIES],
  allEventTypes: [
    'assigned_or_unassigned_pull_request',
    'closed_pull_request',
    'issue_comment',
    'issues',
    'opened_pull_request',
    'ping',
    'push_commits',
    'push_tags',
    'updated_pull_request',
  ],
  handle({ payload, headers, params, includeTitle }: WebhookRequest): WebhookMessage[] {
    const header = headers['x-github-event'];
    if (typeof header !== 'string') throw missingEventHeader('X-GitHub-Event');
    const p = payloadOf(payload);
    if (p.has('repository') && p.get('repository').opt('private')?.bool() && params.ignore_private_repositories === 'true') return [];
    let message: WebhookMessage | null;
    switch (header) {
      case 'ping':
        message = {
          topic: p.has('repository') ? repoName(p) : p.get('organization').get('login').str(),
          body: setupMessage(NAME, sender(p)),
          eventType: 'ping',
        };
        break;
      case 'push':
        message = pushMessage(p, params.branches);
        break;
      case 'issues':
        message = issuesMessage(p, includeTitle);
        break;
      case 'issue_comment':
        message = issueCommentMessage(p, includeTitle);
        break;
      case 'pull_request':
        message = pullRequestMessage(p, includeTitle);
        break;
      default:
        if (IGNORED_EVENTS.includes(header)) return [];
        throw unsupportedEvent(NAME, header);
    }
    return message ? [message] : [];
  },
};

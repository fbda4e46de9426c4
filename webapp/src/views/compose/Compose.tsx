import { useState } from 'react';
import { graphQLClient } from '../../api/instance';
import { SendMessageMutation } from '../../api/operations/messages';
import type { Narrow } from '../../narrow/narrow';

/** Writes to the narrow's channel and topic. */
export function Compose({ narrow }: { narrow: Narrow }) {
  const [content, setContent] = useState('');
  const channel = narrow.find((t) => t.operator === 'channel');
  const topic = narrow.find((t) => t.operator === 'topic');
  if (!channel) return null;
  const send = async () => {
    if (!content.trim()) return;
    await graphQLClient()
      .mutation(SendMessageMutation, { input: { channelId: Number(channel.operand), topic: topic?.operand ?? '', content, readBySender: true } })
      .toPromise();
    setContent('');
  };
  return (
    <form
      className="compose"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <label htmlFor="compose-content">Message</label>
      <textarea id="compose-content" value={content} onChange={(e) => setContent(e.target.value)} />
      <button type="submit">Send</button>
    </form>
  );
}

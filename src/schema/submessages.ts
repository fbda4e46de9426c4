import { Field, ID, Int, ObjectType } from 'type-graphql';
import type { SubmessageDict } from '../core/submessages/view';

@ObjectType('Submessage', {
  description: "Data of a message's widget (a poll, a to-do list): the first describes the widget, each later one acts on it. Oldest first.",
})
export class SubmessageType {
  @Field(() => ID) id!: number;
  @Field(() => Int) messageId!: number;
  @Field(() => Int, { description: 'Who added it (not necessarily who sent the message).' }) senderId!: number;
  @Field({ description: '"widget" for every submessage Zulip clients make.' }) msgType!: string;
  @Field({ description: 'JSON text: the widget (widget_type, extra_data), or an action on it (a vote, a new option, a task).' })
  content!: string;

  static from(dict: SubmessageDict): SubmessageType {
    return Object.assign(new SubmessageType(), {
      id: dict.id,
      messageId: dict.message_id,
      senderId: dict.sender_id,
      msgType: dict.msg_type,
      content: dict.content,
    });
  }
}

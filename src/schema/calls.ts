import { Field, ObjectType } from 'type-graphql';

@ObjectType('VideoCall', { description: 'A call made with one of the organization’s call providers.' })
export class VideoCallType {
  @Field({
    description: 'Where participants join: the provider’s URL, or for BigBlueButton a link on this server (relative) that starts the meeting.',
  })
  url!: string;
}

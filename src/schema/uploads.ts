import { Field, Float, ID, InputType, ObjectType } from 'type-graphql';
import type { AttachmentDict } from '../core/uploads/view';

@ObjectType({ description: 'A file you uploaded (GET /attachments).' })
export class Attachment {
  @Field(() => ID) id!: string;
  @Field({ description: 'The file name as uploaded.' }) name!: string;
  @Field({ description: 'Where the file lives: its URL is /user_uploads/ followed by this.' }) pathId!: string;
  @Field(() => Float, { description: 'Size in bytes.' }) size!: number;
  @Field(() => Float, { description: 'Upload time, in UNIX seconds.' }) createTime!: number;
  @Field(() => [ID], { description: 'The messages linking the file, oldest first; readers of any of them may download it.' })
  messageIds!: string[];

  static from(dict: AttachmentDict): Attachment {
    return Object.assign(new Attachment(), {
      id: String(dict.id),
      name: dict.name,
      pathId: dict.path_id,
      size: dict.size,
      createTime: dict.create_time,
      messageIds: dict.message_ids.map(String),
    });
  }
}

@ObjectType({ description: "Your uploaded files and the organization's total upload size." })
export class AttachmentList {
  @Field(() => [Attachment]) attachments!: Attachment[];
  @Field(() => Float, { description: "Bytes of every file the organization's users uploaded." }) uploadSpaceUsed!: number;
}

@InputType({
  description:
    'A file to upload, its bytes in base64 (the GraphQL equivalent of POST /user_uploads; the GraphQL request body limit bounds its size, so large files go through REST).',
})
export class UploadFileInput {
  @Field() filename!: string;
  @Field(() => String, { nullable: true, description: "The file's media type; guessed from its name when absent." }) contentType?: string | null;
  @Field() contentBase64!: string;
}

@ObjectType()
export class UploadFilePayload {
  @Field({ description: "The file's URL, relative to the server." }) url!: string;
  @Field({ description: 'The name the file was stored as; link it as [filename](url).' }) filename!: string;
  @Field(() => Attachment) attachment!: Attachment;
}

@ObjectType()
export class DeleteAttachmentPayload {
  @Field(() => ID, { description: 'The deleted attachment.' }) id!: string;
}

@ObjectType()
export class TemporaryFileUrl {
  @Field({ description: 'A link to the file that needs no credentials, valid for a minute.' }) url!: string;
}

@ObjectType({ description: 'Whether an uploaded image has its thumbnails (GET /thumbnail/status).' })
export class ThumbnailStatus {
  @Field({ description: 'True once every thumbnail of the image is made; poll until it is.' }) hasThumbnail!: boolean;
}

@InputType({ description: 'An avatar image, its bytes in base64 (the GraphQL equivalent of POST /users/me/avatar).' })
export class AvatarInput {
  @Field() contentBase64!: string;
}

@ObjectType()
export class AvatarPayload {
  @Field({ description: "Your avatar's URL now." }) avatarUrl!: string;
}

@ObjectType()
export class RealmImagePayload {
  @Field({ description: "The image's URL now (the default one after a deletion)." }) url!: string;
  @Field({ description: '"U" when uploaded; otherwise the default ("G" for the icon, "D" for logos).' }) source!: string;
}

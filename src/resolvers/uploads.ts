import { Readable } from 'node:stream';
import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { createAttachment, deleteAttachment, invalidAttachment } from '../core/uploads/actions';
import { accessUpload, uploadContentType } from '../core/uploads/downloads';
import { attachmentsOwnedBy, uploadSpaceUsed } from '../core/uploads/queries';
import { temporaryUrl } from '../core/uploads/signed-urls';
import { thumbnailStatus } from '../core/uploads/thumbnail-status';
import { fileStore } from '../core/uploads/stores';
import { attachmentDicts, attachmentDictsByIds } from '../core/uploads/view';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import {
  Attachment,
  AttachmentList,
  AvatarInput,
  AvatarPayload,
  DeleteAttachmentPayload,
  RealmImagePayload,
  TemporaryFileUrl,
  ThumbnailStatus,
  UploadFileInput,
  UploadFilePayload,
} from '../schema/uploads';
import { deleteAvatar, uploadAvatar } from '../core/uploads/avatars';
import { requireAvatarChangesAllowed } from '../core/users/name-policy';
import { deleteRealmIcon, deleteRealmLogo, uploadRealmIcon, uploadRealmLogo } from '../core/uploads/realm-images';
import { Realm } from '../core/realm/model';
import { realmIconUrl, realmLogoUrl } from '../core/realm/queries';

const me = (ctx: GraphQLContext) => ctx.user as User;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeBase64(text: string): Buffer {
  const base64 = text.replace(/\s+/g, '');
  if (!BASE64.test(base64) || base64.length % 4 === 1) throw errors.badRequest('Invalid contentBase64');
  return Buffer.from(base64, 'base64');
}

/** The realm id and the decoded path of a /user_uploads/<realm id>/<path> URL. */
function uploadUrlParts(url: string): { realmIdText: string; path: string } {
  const match = /^\/user_uploads\/([^/]+)\/(.+)$/.exec(url);
  if (!match) throw errors.badRequest('Invalid file URL');
  try {
    return { realmIdText: match[1], path: match[2].split('/').map(decodeURIComponent).join('/') };
  } catch {
    throw errors.badRequest('Invalid file URL');
  }
}

@Resolver(() => Attachment)
export class UploadResolver {
  @Authorized()
  @Query(() => AttachmentList, { description: 'Files you uploaded, with the messages linking them (GET /attachments).' })
  async attachments(@Ctx() ctx: GraphQLContext): Promise<AttachmentList> {
    const db = ctx.deps.knex;
    const dicts = await attachmentDicts(db, await attachmentsOwnedBy(db, me(ctx).id));
    return Object.assign(new AttachmentList(), { attachments: dicts.map(Attachment.from), uploadSpaceUsed: await uploadSpaceUsed(db, ctx.deps.realmId) });
  }

  @Authorized()
  @Query(() => TemporaryFileUrl, { description: 'A short-lived link to a file you may read, for clients that cannot send credentials.' })
  async fileTemporaryUrl(
    @Arg('url', { description: "The file's /user_uploads/<realm id>/<path> URL." }) url: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TemporaryFileUrl> {
    const { realmIdText, path } = uploadUrlParts(url);
    const attachment = await accessUpload(ctx.deps, me(ctx), realmIdText, path);
    return Object.assign(new TemporaryFileUrl(), { url: await temporaryUrl(ctx.deps, attachment.path_id) });
  }

  @Authorized()
  @Query(() => ThumbnailStatus, {
    description: 'Whether an image you uploaded has its thumbnails yet (GET /thumbnail/status/{realm_id_str}/{filename}); for polling after an upload.',
  })
  async thumbnailStatus(
    @Arg('url', { description: "The image's /user_uploads/<realm id>/<path> URL." }) url: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ThumbnailStatus> {
    const { realmIdText, path } = uploadUrlParts(url);
    return Object.assign(new ThumbnailStatus(), { hasThumbnail: await thumbnailStatus(ctx.deps, me(ctx), realmIdText, path) });
  }

  @Authorized()
  @Mutation(() => UploadFilePayload, { description: 'Uploads one file (POST /user_uploads); only you can read it until a message links it.' })
  async uploadFile(@Arg('input', () => UploadFileInput) input: UploadFileInput, @Ctx() ctx: GraphQLContext): Promise<UploadFilePayload> {
    const bytes = decodeBase64(input.contentBase64);
    const staged = await fileStore(ctx.deps.config).stage(Readable.from([bytes]));
    const contentType = uploadContentType(input.filename, input.contentType ?? '');
    const result = await createAttachment(ctx.deps, me(ctx), staged, input.filename, contentType);
    const [dict] = await attachmentDictsByIds(ctx.deps.knex, [result.attachmentId]);
    return Object.assign(new UploadFilePayload(), { url: result.url, filename: result.filename, attachment: Attachment.from(dict) });
  }

  @Authorized()
  @Mutation(() => AvatarPayload, { description: 'Sets your avatar from an image (POST /users/me/avatar).' })
  async uploadAvatar(@Arg('input', () => AvatarInput) input: AvatarInput, @Ctx() ctx: GraphQLContext): Promise<AvatarPayload> {
    await requireAvatarChangesAllowed(ctx.deps.knex, ctx.deps.realmId, me(ctx));
    const avatarUrl = await uploadAvatar(ctx.deps, me(ctx), [{ data: decodeBase64(input.contentBase64) }]);
    return Object.assign(new AvatarPayload(), { avatarUrl });
  }

  @Authorized()
  @Mutation(() => AvatarPayload, { description: 'Goes back to the gravatar of your address (DELETE /users/me/avatar).' })
  async deleteAvatar(@Ctx() ctx: GraphQLContext): Promise<AvatarPayload> {
    await requireAvatarChangesAllowed(ctx.deps.knex, ctx.deps.realmId, me(ctx));
    return Object.assign(new AvatarPayload(), { avatarUrl: await deleteAvatar(ctx.deps, me(ctx)) });
  }

  @Authorized()
  @Mutation(() => RealmImagePayload, {
    description: 'Sets the organization icon, or the day or night logo (POST /realm/icon, /realm/logo); administrators only.',
  })
  async uploadRealmImage(
    @Arg('image', { description: '"icon", "logo" or "night_logo".' }) image: string,
    @Arg('contentBase64') contentBase64: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RealmImagePayload> {
    const kind = realmImageKind(image);
    const files = [{ data: decodeBase64(contentBase64) }];
    if (kind === 'icon') await uploadRealmIcon(ctx.deps, me(ctx), files);
    else await uploadRealmLogo(ctx.deps, me(ctx), files, kind === 'night_logo');
    return realmImage(ctx, kind);
  }

  @Authorized()
  @Mutation(() => RealmImagePayload, { description: 'Puts the organization icon or a logo back to the default (DELETE /realm/icon, /realm/logo).' })
  async deleteRealmImage(
    @Arg('image', { description: '"icon", "logo" or "night_logo".' }) image: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<RealmImagePayload> {
    const kind = realmImageKind(image);
    if (kind === 'icon') await deleteRealmIcon(ctx.deps, me(ctx));
    else await deleteRealmLogo(ctx.deps, me(ctx), kind === 'night_logo');
    return realmImage(ctx, kind);
  }

  @Authorized()
  @Mutation(() => DeleteAttachmentPayload, { description: 'Deletes one of your files (DELETE /attachments/{id}); it is no longer served.' })
  async deleteAttachment(@Arg('id', () => ID) id: string, @Ctx() ctx: GraphQLContext): Promise<DeleteAttachmentPayload> {
    if (!/^\d+$/.test(id)) throw invalidAttachment();
    await deleteAttachment(ctx.deps, me(ctx), Number(id));
    return Object.assign(new DeleteAttachmentPayload(), { id });
  }
}

function realmImageKind(image: string): 'icon' | 'logo' | 'night_logo' {
  if (image !== 'icon' && image !== 'logo' && image !== 'night_logo') throw errors.badRequest('Invalid image');
  return image;
}

async function realmImage(ctx: GraphQLContext, kind: 'icon' | 'logo' | 'night_logo'): Promise<RealmImagePayload> {
  const realm = await Realm.query(ctx.deps.knex).findById(ctx.deps.realmId).throwIfNotFound();
  const url = kind === 'icon' ? realmIconUrl(realm) : realmLogoUrl(realm, kind, ctx.deps.config.externalUrl);
  const source = kind === 'icon' ? realm.icon_source : kind === 'logo' ? realm.logo_source : realm.night_logo_source;
  return Object.assign(new RealmImagePayload(), { url, source });
}

import { Field, ObjectType, ID } from 'type-graphql';
import type { LinkifierDict } from '../core/linkifiers/model';
import type { PlaygroundDict } from '../core/playgrounds/model';

@ObjectType('Linkifier', { description: 'Text matching `pattern` (RE2) becomes a link to `urlTemplate` (RFC 6570) filled with its named groups.' })
export class LinkifierType {
  @Field(() => ID) id!: number;
  @Field() pattern!: string;
  @Field() urlTemplate!: string;

  static from(dict: LinkifierDict): LinkifierType {
    return Object.assign(new LinkifierType(), { id: dict.id, pattern: dict.pattern, urlTemplate: dict.url_template });
  }
}

@ObjectType('CodePlayground', { description: 'A site code blocks of one language can be opened in.' })
export class CodePlaygroundType {
  @Field(() => ID) id!: number;
  @Field() name!: string;
  @Field({ description: 'The Pygments language name of the code blocks it opens.' }) pygmentsLanguage!: string;
  @Field({ description: 'RFC 6570 template with the one variable `code`.' }) urlTemplate!: string;

  static from(dict: PlaygroundDict): CodePlaygroundType {
    return Object.assign(new CodePlaygroundType(), {
      id: dict.id,
      name: dict.name,
      pygmentsLanguage: dict.pygments_language,
      urlTemplate: dict.url_template,
    });
  }
}

@ObjectType('LinkifierPayload', { description: 'The linkifier after the change.' })
export class LinkifierPayload {
  @Field(() => LinkifierType) linkifier!: LinkifierType;
}

@ObjectType('LinkifiersPayload', { description: 'Every linkifier, in the order they now apply.' })
export class LinkifiersPayload {
  @Field(() => [LinkifierType]) linkifiers!: LinkifierType[];
}

import { ArgsType, Field, ObjectType, ID } from 'type-graphql';
import type { LinkifierDict } from '../core/linkifiers/model';
import type { PlaygroundDict } from '../core/playgrounds/model';

@ObjectType('Linkifier', { description: 'Text matching `pattern` (RE2) becomes a link to `urlTemplate` (RFC 6570) filled with its named groups.' })
export class LinkifierType {
  @Field(() => ID) id!: number;
  @Field() pattern!: string;
  @Field() urlTemplate!: string;
  @Field(() => String, { nullable: true, description: 'Text the pattern matches; required by a reverse template.' }) exampleInput!: string | null;
  @Field(() => String, { nullable: true, description: 'What a pasted URL matching the templates becomes: `{group}` placeholders, `{{`/`}}` for braces.' })
  reverseTemplate!: string | null;
  @Field(() => [String], { description: 'Further URL templates recognized only when converting pasted URLs back into text.' })
  alternativeUrlTemplates!: string[];

  static from(dict: LinkifierDict): LinkifierType {
    return Object.assign(new LinkifierType(), {
      id: dict.id,
      pattern: dict.pattern,
      urlTemplate: dict.url_template,
      exampleInput: dict.example_input,
      reverseTemplate: dict.reverse_template,
      alternativeUrlTemplates: dict.alternative_url_templates,
    });
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

@ArgsType()
export class LinkifierArgs {
  @Field() pattern!: string;
  @Field() urlTemplate!: string;
  @Field(() => String, { nullable: true }) exampleInput?: string | null;
  @Field(() => String, { nullable: true }) reverseTemplate?: string | null;
  @Field(() => [String], { nullable: true }) alternativeUrlTemplates?: string[] | null;

  /** As the core takes it: arguments left out (null) leave the linkifier's reverse fields as they are. */
  input() {
    return {
      pattern: this.pattern,
      urlTemplate: this.urlTemplate,
      exampleInput: this.exampleInput ?? undefined,
      reverseTemplate: this.reverseTemplate ?? undefined,
      alternativeUrlTemplates: this.alternativeUrlTemplates ?? undefined,
    };
  }
}

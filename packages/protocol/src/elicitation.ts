import { z } from 'zod';

/** A string field in an elicitation form. */
export const StringSchemaSchema = z.looseObject({
  type: z.literal('string'),
  title: z.string().optional(),
  description: z.string().optional(),
  minLength: z.int().optional(),
  maxLength: z.int().optional(),
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  default: z.string().optional(),
});
/** A string form field. */
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A number or integer field in an elicitation form. */
export const NumberSchemaSchema = z.looseObject({
  type: z.enum(['number', 'integer']),
  title: z.string().optional(),
  description: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  default: z.number().optional(),
});
/** A number form field. */
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A boolean field in an elicitation form. */
export const BooleanSchemaSchema = z.looseObject({
  type: z.literal('boolean'),
  title: z.string().optional(),
  description: z.string().optional(),
  default: z.boolean().optional(),
});
/** A boolean form field. */
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

const titled = { title: z.string().optional(), description: z.string().optional() };
const option = z.looseObject({ const: z.string(), title: z.string() });

/** Single choice from plain values. */
export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('string'),
  ...titled,
  enum: z.array(z.string()),
  default: z.string().optional(),
});
/** Single choice from plain values. */
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** Single choice from titled values. */
export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('string'),
  ...titled,
  oneOf: z.array(option),
  default: z.string().optional(),
});
/** Single choice from titled values. */
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** Multiple choice from plain values. */
export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('array'),
  ...titled,
  minItems: z.int().optional(),
  maxItems: z.int().optional(),
  items: z.looseObject({ type: z.literal('string'), enum: z.array(z.string()) }),
  default: z.array(z.string()).optional(),
});
/** Multiple choice from plain values. */
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** Multiple choice from titled values. */
export const TitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal('array'),
  ...titled,
  minItems: z.int().optional(),
  maxItems: z.int().optional(),
  items: z.looseObject({ anyOf: z.array(option) }),
  default: z.array(z.string()).optional(),
});
/** Multiple choice from titled values. */
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** Deprecated single choice with parallel `enumNames`. */
export const LegacyTitledEnumSchemaSchema = z.looseObject({
  type: z.literal('string'),
  ...titled,
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
  default: z.string().optional(),
});
/** Deprecated titled enum. */
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

/** A single-choice field, titled or not. */
export const SingleSelectEnumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
]);
/** A single-choice field. */
export type SingleSelectEnumSchema = z.infer<typeof SingleSelectEnumSchemaSchema>;

/** A multiple-choice field, titled or not. */
export const MultiSelectEnumSchemaSchema = z.union([
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);
/** A multiple-choice field. */
export type MultiSelectEnumSchema = z.infer<typeof MultiSelectEnumSchemaSchema>;

/** Any enum field. */
export const EnumSchemaSchema = z.union([
  SingleSelectEnumSchemaSchema,
  MultiSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
]);
/** Any enum field. */
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

/** Any field allowed in an elicitation form (flat, primitive-valued). Most specific shapes are tried first. */
export const PrimitiveSchemaDefinitionSchema = z.union([
  EnumSchemaSchema,
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
]);
/** Any form field. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/** Form-mode elicitation: the client renders `requestedSchema` and returns the values. `mode` may be omitted. */
export const ElicitRequestFormParamsSchema = z.looseObject({
  mode: z.literal('form').optional(),
  message: z.string(),
  requestedSchema: z.looseObject({
    $schema: z.string().optional(),
    type: z.literal('object'),
    properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
    required: z.array(z.string()).optional(),
  }),
});
/** Form-mode elicitation params. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** URL-mode elicitation: the client sends the user to `url` (out of band). */
export const ElicitRequestURLParamsSchema = z.looseObject({
  mode: z.literal('url'),
  message: z.string(),
  url: z.string(),
});
/** URL-mode elicitation params. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/** Either elicitation mode. URL mode is tried first because form mode's `mode` is optional. */
export const ElicitRequestParamsSchema = z.union([ElicitRequestURLParamsSchema, ElicitRequestFormParamsSchema]);
/** Either elicitation mode. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** `elicitation/create`, as an input request inside an InputRequiredResult or an input_required task. */
export const ElicitRequestSchema = z.looseObject({
  method: z.literal('elicitation/create'),
  params: ElicitRequestParamsSchema,
});
/** An elicitation request. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** The user's answer. `content` is present on `accept` in form mode. */
export const ElicitResultSchema = z.looseObject({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});
/** An elicitation answer. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

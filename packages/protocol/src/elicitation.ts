import { z } from 'zod';

/** A string field in an elicitation form. */
export const StringSchemaSchema = z.looseObject({
  /** Always `string`. */
  type: z.literal('string'),
  /** The field's label. */
  title: z.string().optional(),
  /** Help text for the field. */
  description: z.string().optional(),
  /** Shortest accepted length, in characters. */
  minLength: z.int().optional(),
  /** Longest accepted length, in characters. */
  maxLength: z.int().optional(),
  /** A format the value must have. */
  format: z.enum(['email', 'uri', 'date', 'date-time']).optional(),
  /** The value to prefill. */
  default: z.string().optional(),
});
/** A string form field. */
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A number or integer field in an elicitation form. */
export const NumberSchemaSchema = z.looseObject({
  /** `number` or `integer`. */
  type: z.enum(['number', 'integer']),
  /** The field's label. */
  title: z.string().optional(),
  /** Help text for the field. */
  description: z.string().optional(),
  /** Smallest accepted value. */
  minimum: z.number().optional(),
  /** Largest accepted value. */
  maximum: z.number().optional(),
  /** The value to prefill. */
  default: z.number().optional(),
});
/** A number form field. */
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A boolean field in an elicitation form. */
export const BooleanSchemaSchema = z.looseObject({
  /** Always `boolean`. */
  type: z.literal('boolean'),
  /** The field's label. */
  title: z.string().optional(),
  /** Help text for the field. */
  description: z.string().optional(),
  /** The value to prefill. */
  default: z.boolean().optional(),
});
/** A boolean form field. */
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

const titled = {
  /** The field's label. */
  title: z.string().optional(),
  /** Help text for the field. */
  description: z.string().optional(),
};
const option = z.looseObject({
  /** The value put in the answer. */
  const: z.string(),
  /** The label shown for it. */
  title: z.string(),
});

/** Single choice from plain values. */
export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  /** Always `string`. */
  type: z.literal('string'),
  ...titled,
  /** The allowed values. */
  enum: z.array(z.string()),
  /** The value to preselect. */
  default: z.string().optional(),
});
/** Single choice from plain values. */
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** Single choice from titled values. */
export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  /** Always `string`. */
  type: z.literal('string'),
  ...titled,
  /** The allowed values, each with its label. */
  oneOf: z.array(option),
  /** The value to preselect. */
  default: z.string().optional(),
});
/** Single choice from titled values. */
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** Multiple choice from plain values. */
export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  /** Always `array`. */
  type: z.literal('array'),
  ...titled,
  /** Fewest values to pick. */
  minItems: z.int().optional(),
  /** Most values to pick. */
  maxItems: z.int().optional(),
  /** The schema of each pick. */
  items: z.looseObject({
    /** Always `string`. */
    type: z.literal('string'),
    /** The allowed values. */
    enum: z.array(z.string()),
  }),
  /** The values to preselect. */
  default: z.array(z.string()).optional(),
});
/** Multiple choice from plain values. */
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** Multiple choice from titled values. */
export const TitledMultiSelectEnumSchemaSchema = z.looseObject({
  /** Always `array`. */
  type: z.literal('array'),
  ...titled,
  /** Fewest values to pick. */
  minItems: z.int().optional(),
  /** Most values to pick. */
  maxItems: z.int().optional(),
  /** The schema of each pick. */
  items: z.looseObject({
    /** The allowed values, each with its label. */
    anyOf: z.array(option),
  }),
  /** The values to preselect. */
  default: z.array(z.string()).optional(),
});
/** Multiple choice from titled values. */
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** Deprecated single choice with parallel `enumNames`. */
export const LegacyTitledEnumSchemaSchema = z.looseObject({
  /** Always `string`. */
  type: z.literal('string'),
  ...titled,
  /** The allowed values. */
  enum: z.array(z.string()),
  /** Labels for the values, in the same order (deprecated: use `oneOf`). */
  enumNames: z.array(z.string()).optional(),
  /** The value to preselect. */
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
  /** `form`, or absent (form is the default). */
  mode: z.literal('form').optional(),
  /** What to ask the user, shown with the form. */
  message: z.string(),
  /** The form: a flat object schema of primitive fields. */
  requestedSchema: z.looseObject({
    /** The JSON Schema dialect. */
    $schema: z.string().optional(),
    /** Always `object`. */
    type: z.literal('object'),
    /** The fields, by name. */
    properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
    /** Names of the fields the user must fill in. */
    required: z.array(z.string()).optional(),
  }),
});
/** Form-mode elicitation params. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** URL-mode elicitation: the client sends the user to `url` (out of band). */
export const ElicitRequestURLParamsSchema = z.looseObject({
  /** Always `url`. */
  mode: z.literal('url'),
  /** Why the user should open the URL, shown with it. */
  message: z.string(),
  /** The URL to send the user to. */
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
  /** Always `elicitation/create`. */
  method: z.literal('elicitation/create'),
  /** Form or URL mode params. */
  params: ElicitRequestParamsSchema,
});
/** An elicitation request. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** The user's answer. `content` is present on `accept` in form mode. */
export const ElicitResultSchema = z.looseObject({
  /** `accept` (the user submitted), `decline` (the user refused) or `cancel` (dismissed without choosing). */
  action: z.enum(['accept', 'decline', 'cancel']),
  /** The submitted values by field name; present on `accept` in form mode. */
  content: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])).optional(),
});
/** An elicitation answer. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

/**
 * The one configuration loader of Bookie's processes (`bookie`, `bookie-wallet`): each setting is read from its
 * flag or environment variable and checked against a TypeBox schema (JSON schema) by env-schema (Ajv: the string
 * is converted to the schema's type, the schema's `default` fills an absent or empty value). A bad value is a
 * {@link ConfigError}: one line naming the setting as the operator writes it, which the CLIs print before exiting 2.
 *
 * @packageDocumentation
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import envSchema from 'env-schema';

/** A setting that is missing or malformed. `setting` names it as the operator writes it (`PORT`, `--port`). */
export class ConfigError extends Error {
  constructor(
    public readonly setting: string,
    message: string,
  ) {
    super(`invalid setting ${setting}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** The one-setting schemas, by setting and schema: each is compiled once per process (Ajv keeps it by object). */
const schemas = new Map<string, TSchema>();

function schemaOf(setting: string, schema: TSchema): TSchema {
  const key = `${setting}\u0000${JSON.stringify(schema)}`;
  let s = schemas.get(key);
  if (!s) {
    s = Type.Object({ [setting]: Type.Optional(schema) });
    schemas.set(key, s);
  }
  return s;
}

/**
 * Reads setting `setting` from `raw` (its flag's or variable's text; `undefined` or `""` = the schema's `default`,
 * or `undefined` without one), converted to the schema's type and checked against it.
 *
 * @param expected - what a good value looks like, for the error (`a whole number 0..65535`); default: env-schema's
 *   own wording.
 * @param options - `secret`: the error does not repeat the value (a token).
 * @throws ConfigError naming `setting`: `invalid setting PORT: expected a whole number 0..65535, got "eighty"`.
 */
export function readSetting<T extends TSchema>(
  setting: string,
  schema: T,
  raw: string | undefined,
  expected?: string,
  options: { secret?: boolean } = {},
): Static<T> {
  const data: Record<string, string> = raw === undefined || raw === '' ? {} : { [setting]: raw };
  try {
    return envSchema({ schema: schemaOf(setting, schema), data, env: false, dotenv: false })[
      setting
    ] as Static<T>;
  } catch (err) {
    const detail =
      (err as { errors?: { message?: string }[] }).errors?.[0]?.message ?? (err as Error).message;
    const got = options.secret ? '' : `, got "${raw}"`;
    throw new ConfigError(setting, `expected ${expected ?? detail}${got}`);
  }
}

/** A whole number in [min, max] (`default` when absent). */
export function intSetting(
  setting: string,
  raw: string | undefined,
  def: number,
  min: number,
  max: number,
): number {
  const n = readSetting(
    setting,
    Type.Integer({ minimum: min, maximum: max, default: def }),
    raw,
    `a whole number ${min}..${max}`,
  );
  return n ?? def;
}

/** A number in [0, 1], e.g. a fault rate (`undefined` when absent). */
export function shareSetting(setting: string, raw: string | undefined): number | undefined {
  return readSetting(setting, Type.Number({ minimum: 0, maximum: 1 }), raw, 'a number in [0, 1]');
}

/** One of `values` (`def` when absent). */
export function choiceSetting<const V extends string>(
  setting: string,
  raw: string | undefined,
  values: readonly V[],
  def: V,
): V {
  const schema = Type.Union(
    values.map((v) => Type.Literal(v)),
    { default: def },
  );
  return readSetting(setting, schema, raw, `one of ${values.join(', ')}`) as V;
}

/** A `postgres://` or `postgresql://` URL (`undefined` when absent). */
export function postgresUrlSetting(setting: string, raw: string | undefined): string | undefined {
  const url = readSetting(setting, Type.String({ pattern: '^postgres(ql)?://' }), raw, 'a postgres:// URL');
  if (url !== undefined && !URL.canParse(url)) throw new ConfigError(setting, `not a URL: "${url}"`);
  return url;
}

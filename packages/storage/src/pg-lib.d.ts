/** pg's value serialisation (`pg/lib/utils`), which @types/pg does not declare: what pg binds for a parameter. */
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): string | Buffer | null };
  export default utils;
}

/**
 * Which environments the console treats as production when someone stops protecting one: taking the
 * protection off production lets every save run there unseen, so the Environments screen asks first.
 * Dogu has no kind of environment, so the id and the name decide: the word `production`, `prod`,
 * `prd` or `live` not inside a longer word (`prod`, `eu-production`, `prod2`, `Live (EU)`; not
 * `preproduction`), or 本番 in the name. A false match only costs one more confirmation, so the rule
 * errs towards asking.
 */
const productionWord = /(^|[^a-z])(production|prod|prd|live)([^a-z]|$)/i;

export function looksLikeProduction(environment: { id: string; name: string }): boolean {
  return (
    productionWord.test(environment.id) ||
    productionWord.test(environment.name) ||
    environment.name.includes('本番')
  );
}

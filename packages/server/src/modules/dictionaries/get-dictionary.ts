import type { Dictionary, DictionaryItem, DictionaryLocale, DictionaryName } from '@bookie/contracts';
import type { Executor } from '../../db/transaction.js';
import { bookReferenceData, whiteLabelCurrencies } from './dictionaries.repo.js';
import {
  BET_STATUS_NAMES,
  MARKET_TYPE_NAMES,
  type Names,
  RESTRICTION_TYPE_NAMES,
  RESTRICTION_TYPE_ORDER,
  SPORT_NAMES,
} from './names.js';

function nameIn(names: Names | undefined, locale: DictionaryLocale, fallback: string): string {
  return names?.[locale] ?? names?.en ?? fallback;
}

/**
 * One dictionary of the partner REST API (DECISIONS D54 `GET /dictionaries/{name}`) with names in `locale`:
 * `sports`, `tournaments` (the tournament names as the feed carries them, the same in every locale) and
 * `market-types` of the book; the 24 `restriction-types` of spec 01; the D6 `bet-statuses`; and the white label's
 * `currencies` (names from the runtime's CLDR data). Sorted by id.
 */
export async function getDictionary(
  db: Executor,
  input: { whiteLabelId: string; name: DictionaryName; locale: DictionaryLocale },
): Promise<Dictionary> {
  const { locale } = input;
  let items: DictionaryItem[];
  switch (input.name) {
    case 'sports': {
      const ids = new Set([...(await bookReferenceData(db)).sports]);
      items = [...ids].sort().map((id) => ({ id, name: nameIn(SPORT_NAMES[id], locale, id) }));
      break;
    }
    case 'tournaments':
      items = (await bookReferenceData(db)).tournaments
        .map((t) => ({ id: t.id, name: t.name, sport_id: t.sport_id }))
        .sort((a, b) => a.id.localeCompare(b.id));
      break;
    case 'market-types': {
      const ids = new Set([
        ...Object.keys(MARKET_TYPE_NAMES).map(Number),
        ...(await bookReferenceData(db)).marketTypes,
      ]);
      items = [...ids]
        .sort((a, b) => a - b)
        .map((id) => ({ id: String(id), name: nameIn(MARKET_TYPE_NAMES[id], locale, `market type ${id}`) }));
      break;
    }
    case 'restriction-types':
      items = RESTRICTION_TYPE_ORDER.map((id) => ({
        id,
        name: nameIn(RESTRICTION_TYPE_NAMES[id], locale, id),
      }));
      break;
    case 'bet-statuses':
      items = Object.keys(BET_STATUS_NAMES)
        .map(Number)
        .sort((a, b) => a - b)
        .map((id) => ({ id, name: nameIn(BET_STATUS_NAMES[id], locale, String(id)) }));
      break;
    case 'currencies': {
      const display = new Intl.DisplayNames([locale], { type: 'currency', fallback: 'code' });
      items = (await whiteLabelCurrencies(db, input.whiteLabelId))
        .sort()
        .map((id) => ({ id, name: display.of(id) ?? id }));
      break;
    }
  }
  return { dictionary: input.name, locale, items };
}

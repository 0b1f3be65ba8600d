import type { DictionaryLocale } from '@bookie/contracts';
import { BET_STATUS, RESTRICTION_TYPES, type RestrictionType } from '@bookie/core';

/** A name in every dictionary locale (English is the fallback). */
export type Names = Record<DictionaryLocale, string>;

/** Names of the sports Bookie's book carries, by sport id (an id without an entry is shown as itself). */
export const SPORT_NAMES: Record<string, Names> = {
  football: { en: 'Football', de: 'Fußball', es: 'Fútbol' },
  basketball: { en: 'Basketball', de: 'Basketball', es: 'Baloncesto' },
  tennis: { en: 'Tennis', de: 'Tennis', es: 'Tenis' },
  'ice-hockey': { en: 'Ice hockey', de: 'Eishockey', es: 'Hockey sobre hielo' },
  volleyball: { en: 'Volleyball', de: 'Volleyball', es: 'Voleibol' },
  handball: { en: 'Handball', de: 'Handball', es: 'Balonmano' },
  baseball: { en: 'Baseball', de: 'Baseball', es: 'Béisbol' },
  esports: { en: 'Esports', de: 'E-Sport', es: 'Deportes electrónicos' },
};

/** Names of market types by `type_id` (the market types of the simulator's book and the common ones). */
export const MARKET_TYPE_NAMES: Record<number, Names> = {
  1: { en: '1X2', de: '1X2 (Dreiweg)', es: '1X2' },
  10: { en: 'Double chance', de: 'Doppelte Chance', es: 'Doble oportunidad' },
  11: { en: 'Draw no bet', de: 'Unentschieden keine Wette', es: 'Empate no válido' },
  14: { en: 'Handicap (European)', de: 'Handicap (europäisch)', es: 'Hándicap (europeo)' },
  16: { en: 'Asian handicap', de: 'Asiatisches Handicap', es: 'Hándicap asiático' },
  18: { en: 'Total goals', de: 'Tore gesamt', es: 'Total de goles' },
  29: { en: 'Both teams to score', de: 'Beide Teams treffen', es: 'Ambos equipos marcan' },
};

/** Names of the bet status codes (DECISIONS D6). */
export const BET_STATUS_NAMES: Record<number, Names> = {
  [BET_STATUS.ACCEPTED]: { en: 'Accepted', de: 'Angenommen', es: 'Aceptada' },
  [BET_STATUS.DECLINED]: { en: 'Declined', de: 'Abgelehnt', es: 'Rechazada' },
  [BET_STATUS.SETTLED]: { en: 'Settled', de: 'Abgerechnet', es: 'Liquidada' },
  [BET_STATUS.UNSETTLED]: { en: 'Unsettled', de: 'Abrechnung zurückgenommen', es: 'Liquidación revertida' },
  [BET_STATUS.REFUNDED]: { en: 'Refunded', de: 'Erstattet', es: 'Reembolsada' },
  [BET_STATUS.REFUNDED_MANUALLY]: {
    en: 'Refunded manually',
    de: 'Manuell erstattet',
    es: 'Reembolsada manualmente',
  },
  [BET_STATUS.CASHED_OUT]: { en: 'Cashed out', de: 'Ausgezahlt (Cash-out)', es: 'Cobrada anticipadamente' },
  [BET_STATUS.PLACE_ERROR]: { en: 'Place error', de: 'Platzierungsfehler', es: 'Error al colocar' },
  [BET_STATUS.FORCE_DECLINE]: { en: 'Force declined', de: 'Zwangsweise abgelehnt', es: 'Rechazo forzado' },
};

/** Names of the 24 restriction types of spec 01. */
export const RESTRICTION_TYPE_NAMES: Record<RestrictionType, Names> = {
  max_bet: { en: 'Stake above the maximum', de: 'Einsatz über dem Maximum', es: 'Apuesta sobre el máximo' },
  bet_type: { en: 'Bet type not allowed', de: 'Wettart nicht erlaubt', es: 'Tipo de apuesta no permitido' },
  bet_interval: {
    en: 'Too soon after the last bet',
    de: 'Zu kurz nach der letzten Wette',
    es: 'Demasiado pronto tras la última apuesta',
  },
  selection_value: { en: 'Odds changed', de: 'Quote geändert', es: 'Cuota cambiada' },
  sport_event_status: { en: 'Event not open', de: 'Ereignis nicht offen', es: 'Evento no abierto' },
  sport_event_existence: { en: 'Unknown event', de: 'Unbekanntes Ereignis', es: 'Evento desconocido' },
  sport_event_bet_stop: {
    en: 'Betting stopped on the event',
    de: 'Wettstopp für das Ereignis',
    es: 'Apuestas detenidas en el evento',
  },
  market_status: { en: 'Market not active', de: 'Markt nicht aktiv', es: 'Mercado no activo' },
  market_existence: { en: 'Unknown market', de: 'Unbekannter Markt', es: 'Mercado desconocido' },
  market_defective: { en: 'Market defective', de: 'Markt fehlerhaft', es: 'Mercado defectuoso' },
  odd_status: { en: 'Outcome not active', de: 'Ausgang nicht aktiv', es: 'Resultado no activo' },
  odd_existence: { en: 'Unknown outcome', de: 'Unbekannter Ausgang', es: 'Resultado desconocido' },
  player_limit: { en: 'Player limit', de: 'Spielerlimit', es: 'Límite del jugador' },
  freebet_not_applicable: {
    en: 'Freebet not applicable',
    de: 'Freiwette nicht anwendbar',
    es: 'Apuesta gratis no aplicable',
  },
  freebet_status: {
    en: 'Freebet not available',
    de: 'Freiwette nicht verfügbar',
    es: 'Apuesta gratis no disponible',
  },
  freebet_amount: { en: 'Freebet amount', de: 'Freiwettenbetrag', es: 'Importe de la apuesta gratis' },
  insurance_not_applicable: {
    en: 'Insurance not applicable',
    de: 'Versicherung nicht anwendbar',
    es: 'Seguro no aplicable',
  },
  insurance_status: {
    en: 'Insurance not available',
    de: 'Versicherung nicht verfügbar',
    es: 'Seguro no disponible',
  },
  insurance_value: { en: 'Insurance value', de: 'Versicherungswert', es: 'Valor del seguro' },
  internal_error: { en: 'Internal error', de: 'Interner Fehler', es: 'Error interno' },
  min_bet: { en: 'Stake below the minimum', de: 'Einsatz unter dem Minimum', es: 'Apuesta bajo el mínimo' },
  not_enough_balance: { en: 'Not enough balance', de: 'Guthaben reicht nicht', es: 'Saldo insuficiente' },
  wl_defined: { en: 'Partner rule', de: 'Partnerregel', es: 'Regla del socio' },
  bonus_not_applicable: { en: 'Bonus not applicable', de: 'Bonus nicht anwendbar', es: 'Bono no aplicable' },
};

/** Every restriction type has a name (checked at load: a new type without names fails the type check). */
export const RESTRICTION_TYPE_ORDER: readonly RestrictionType[] = RESTRICTION_TYPES;

/**
 * Non-ASCII text as the agent sessions of a Russian-speaking team hold it: Russian prose, log
 * messages and code comments; Cyrillic and CJK names, cities and products; emoji (astral-plane
 * surrogate pairs, flags, ZWJ sequences, variation selectors); file names in NFD as macOS
 * writes them (combining marks); and lone surrogates the way real tools print them.
 * Identifiers (ids, hashes, paths) stay ASCII and stand apart, so that they extract as before.
 */
import { base, de, en, Faker, fr, ja, ru, zh_CN } from '@faker-js/faker';
import type { Rng } from './random.ts';
import type { RunShape } from './run-shape.ts';

/** `shape.text`: the shares of non-ASCII lines and of lines with a lone surrogate. */
export type TextMix = RunShape['text'];

export const ASCII_ONLY: TextMix = { multibyteShare: 0, loneSurrogateShare: 0 };

interface Pools {
  ruNames: readonly string[];
  ruCities: readonly string[];
  ruProducts: readonly string[];
  cjkNames: readonly string[];
  cjkCities: readonly string[];
  cjkProducts: readonly string[];
  /** Latin names with accents, decomposed (NFD): a letter and its combining mark. */
  accentedNames: readonly string[];
  emoji: readonly string[];
}

const POOL_SEED = 20261108;
const POOL_SIZE = 120;

let pools: Pools | undefined;

function multibytePools(): Pools {
  pools ??= buildPools();
  return pools;
}

function buildPools(): Pools {
  const inRussian = new Faker({ locale: [ru, en, base], seed: POOL_SEED });
  const inChinese = new Faker({ locale: [zh_CN, en, base], seed: POOL_SEED });
  const inJapanese = new Faker({ locale: [ja, en, base], seed: POOL_SEED });
  const inFrench = new Faker({ locale: [fr, de, en, base], seed: POOL_SEED });
  const draw = (make: () => string) => [...new Set(Array.from({ length: POOL_SIZE }, make))];
  return {
    ruNames: draw(() => inRussian.person.fullName()),
    ruCities: draw(() => inRussian.location.city()),
    ruProducts: draw(() => inRussian.commerce.productName()),
    cjkNames: draw(() => (inChinese.datatype.boolean() ? inChinese.person.fullName() : inJapanese.person.fullName())),
    cjkCities: draw(() => (inChinese.datatype.boolean() ? inChinese.location.city() : inJapanese.location.city())),
    cjkProducts: draw(() => inChinese.commerce.productName()),
    accentedNames: draw(() => inFrench.person.fullName())
      .filter((name) => /[^\x20-\x7e]/.test(name))
      .map((name) => name.normalize('NFD')),
    emoji: draw(() => inRussian.internet.emoji()),
  };
}

/** Emoji outside the BMP with nothing after their surrogate pair, for a cut that leaves a lone high surrogate. */
const ASTRAL_EMOJI = ['🚀', '📦', '🔥', '💳', '🛒', '🐛', '📉', '🧾'];

const RU_EVENTS: readonly ((w: Words) => string)[] = [
  (w) => `Заказ ${w.order()} оплачен: ${w.amount()}`,
  (w) => `Не удалось списать оплату по заказу ${w.order()}: недостаточно средств`,
  (w) => `Промокод ${w.code()} не применён: срок действия истёк`,
  (w) => `Пользователь «${w.ruName()}» отменил заказ ${w.order()}`,
  (w) => `Доставка в г. ${w.ruCity()} недоступна для товара «${w.ruProduct()}»`,
  (w) => `Превышено время ожидания ответа платёжного шлюза (${w.ms()} мс)`,
  (w) => `Повторное подключение к базе данных, попытка ${w.rng.int(1, 5)} из 5`,
  () => 'Корзина пуста, пересчёт скидки пропущен',
  (w) => `Получатель: ${w.cjkName()}, ${w.cjkCity()}`,
  (w) => `${w.emoji()} Синхронизация остатков завершена за ${w.ms()} мс`,
  (w) => `注文 ${w.order()} の支払いが完了しました`,
  (w) => `订单 ${w.order()} 已发货，收件人 ${w.cjkName()}`,
  (w) => `Товар «${w.cjkProduct()}» снят с продажи ${w.emoji()}`,
  (w) => `Клиент ${w.accentedName()} запросил возврат по заказу ${w.order()}`,
];

const RU_COMMENTS = [
  'Пересчитываем скидку до валидации корзины',
  'Сумма хранится в копейках, не в рублях',
  'Нельзя кешировать: цена зависит от региона доставки',
  'TODO: убрать после миграции на новый биллинг',
  'Временный обход ошибки платёжного шлюза, не трогать без согласования',
  'Проверяем остатки на складе до резервирования',
  'Порядок важен: сначала блокировка, потом списание',
  'Здесь возможна гонка при параллельных запросах ⚠️',
  'Ёмкость очереди подобрана по нагрузочному тесту',
];

const RU_USER_MESSAGES = [
  'Заказ не найден',
  'Оплата отклонена банком',
  'Товар закончился на складе',
  'Промокод недействителен',
  'Попробуйте ещё раз через минуту',
  'Адрес доставки не указан',
  '支付失败，请稍后重试',
  'ご注文が見つかりません',
];

/** File names as people save them; listings print them decomposed (NFD), as macOS stores them. */
const FILE_NAMES = [
  'Отчёт за май.xlsx',
  'Счёт-фактура №{n}.pdf',
  'Договор поставки (итог).docx',
  'Итоговый отчёт по возвратам.csv',
  'Новый шаблон письма.html',
  'Пояснительная записка.md',
  'Снимок экрана {n} в 12.45.png',
  'Résumé — équipe.pdf',
  '報告書_{n}.pdf',
  '设计稿_v{n}.png',
  '会議メモ.md',
  '🚀 релиз {n}.md',
];

/** Names a Windows user saved in cp1251: a Python tool lists them with surrogateescape. */
const CP1251_FILE_NAMES = ['Отчёт.txt', 'Заявка на возврат.doc', 'прайс-лист.xls', 'Акт сверки.xlsx'];

interface Words {
  rng: Rng;
  order(): string;
  code(): string;
  amount(): string;
  ms(): number;
  ruName(): string;
  ruCity(): string;
  ruProduct(): string;
  cjkName(): string;
  cjkCity(): string;
  cjkProduct(): string;
  accentedName(): string;
  emoji(): string;
}

/**
 * Non-ASCII text drawn from the generator of the content it goes into, so that the same seed
 * gives the same bytes. With a share of 0 it draws nothing: ASCII runs stay as they were.
 */
export class Multibyte {
  private readonly words: Words;

  constructor(
    private readonly rng: Rng,
    private readonly mix: TextMix,
  ) {
    const p = multibytePools();
    this.words = {
      rng,
      order: () => `ord_${rng.alnum(12)}`,
      code: () => rng.alnum(8).toUpperCase(),
      // A narrow no-break space groups thousands, as Russian typography does.
      amount: () => `${rng.int(1, 999)}\u202f${String(rng.int(0, 999)).padStart(3, '0')},${String(rng.int(0, 99)).padStart(2, '0')} ₽`,
      ms: () => rng.int(5, 30_000),
      ruName: () => rng.pick(p.ruNames),
      ruCity: () => rng.pick(p.ruCities),
      ruProduct: () => rng.pick(p.ruProducts),
      cjkName: () => rng.pick(p.cjkNames),
      cjkCity: () => rng.pick(p.cjkCities),
      cjkProduct: () => rng.pick(p.cjkProducts),
      accentedName: () => rng.pick(p.accentedNames),
      emoji: () => rng.pick(p.emoji),
    };
  }

  /** Whether this line or sentence carries non-ASCII text. */
  line(): boolean {
    return this.mix.multibyteShare > 0 && this.rng.chance(this.mix.multibyteShare);
  }

  /** Whether this log or listing line carries a lone surrogate. */
  loneSurrogate(): boolean {
    return this.mix.loneSurrogateShare > 0 && this.rng.chance(this.mix.loneSurrogateShare);
  }

  /** A log message about orders and payments, in Russian, Chinese or Japanese. */
  logMessage(): string {
    return this.rng.pick(RU_EVENTS)(this.words);
  }

  /**
   * A log message a JavaScript logger capped at a length in UTF-16 units, through an emoji:
   * its high surrogate is left alone at the end.
   */
  cutLogMessage(): string {
    return `${this.logMessage()} ${this.rng.pick(ASTRAL_EMOJI)}`.slice(0, -1);
  }

  comment(): string {
    return this.rng.pick(RU_COMMENTS);
  }

  /** What a service tells its user: an error text in a string literal or an assertion. */
  userMessage(): string {
    return this.rng.pick(RU_USER_MESSAGES);
  }

  /** A person: Cyrillic, CJK, or a Latin name with combining accents. */
  person(): string {
    const which = this.rng.int(0, 3);
    if (which === 0) return this.words.cjkName();
    if (which === 1) return this.words.accentedName();
    return this.words.ruName();
  }

  emoji(): string {
    return this.words.emoji();
  }

  /** A file name as a listing prints it: NFD, so ё and й carry combining marks. */
  fileName(): string {
    return this.rng
      .pick(FILE_NAMES)
      .replace('{n}', String(this.rng.int(1, 999)))
      .normalize('NFD');
  }

  /**
   * A cp1251-encoded file name as Python's os.listdir decodes it on a UTF-8 system
   * (surrogateescape): every non-ASCII byte becomes a lone low surrogate U+DC80-U+DCFF.
   */
  cp1251FileName(): string {
    return [...this.rng.pick(CP1251_FILE_NAMES)].map((ch) => surrogateEscaped(ch)).join('');
  }
}

function surrogateEscaped(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x80) return ch;
  // cp1251: А-я are 0xC0-0xFF, Ё 0xA8, ё 0xB8.
  const byte = code === 0x401 ? 0xa8 : code === 0x451 ? 0xb8 : 0xc0 + (code - 0x410);
  return String.fromCharCode(0xdc00 + byte);
}

/** The longest prefix of `text` within `bytes` UTF-8 bytes (a lone surrogate counts 3, as TextEncoder and Buffer write it). */
export function utf8Prefix(text: string, bytes: number): string {
  return text.slice(0, prefixLength(text, bytes).units);
}

/** The longest prefix of `text` within `bytes` UTF-8 bytes, padded with spaces to exactly `bytes`: a cut never splits a character. */
export function fitUtf8(text: string, bytes: number): string {
  const { units, used } = prefixLength(text, bytes);
  return text.slice(0, units) + ' '.repeat(bytes - used);
}

function prefixLength(text: string, bytes: number): { units: number; used: number } {
  let used = 0;
  let units = 0;
  for (const ch of text) {
    const width = Buffer.byteLength(ch);
    if (used + width > bytes) break;
    used += width;
    units += ch.length;
  }
  return { units, used };
}

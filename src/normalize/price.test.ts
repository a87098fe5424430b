// Table tests for parsePrice: strings quoted in research §1 and the real ikebe/Amazon/Rakuten pages.
import { describe, expect, it } from 'vitest';
import { parsePrice, type ParsedPrice } from './price.js';

const p = (amount: number | null, tax: ParsedPrice['tax'] = 'unknown', range = false): ParsedPrice =>
  range ? { amount, currency: 'JPY', tax, range: true } : { amount, currency: 'JPY', tax };

describe('parsePrice', () => {
  it.each<[string, ParsedPrice]>([
    // Symbols, digits, separators (§1.1)
    ['¥2,200', p(2200)],
    ['￥１，２３４', p(1234)],
    ['￥ 1,234', p(1234)],
    ['￥0', p(0)],
    ['1,280円', p(1280)],
    ['3,200円', p(3200)],
    ['\\1,000', p(1000)],
    ['2200', p(2200)],
    ['14.800円~(税込)', p(14800, 'included', true)],
    ['1万2800円', p(12800)],
    ['12.8万円', p(128000)],
    ['8.5万円', p(85000)],
    ['3,980万円', p(39800000)],
    ['1億2000万円', p(120000000)],
    ['1億円', p(100000000)],
    // Tax display and 総額表示 (§1.2)
    ['11,000円', p(11000)],
    ['11,000円(税込)', p(11000, 'included')],
    ['11,000円（税込）', p(11000, 'included')],
    ['11,000円(うち税1,000円)', p(11000, 'included')],
    ['11,000円(税抜価格10,000円)', p(11000, 'included')],
    ['10,000円(税込11,000円)', p(11000, 'included')],
    ['11,000円(税抜価格10,000円、消費税額等1,000円)', p(11000, 'included')],
    ['10,000円(税抜)', p(10000, 'excluded')],
    ['10,000円(税別)', p(10000, 'excluded')],
    ['10,000円(本体価格)', p(10000, 'excluded')],
    ['10,000円+税', p(10000, 'excluded')],
    ['定価：本体820円＋税', p(820, 'excluded')],
    ['980円（税込1,058円）', p(1058, 'included')],
    ['消費税込 ¥2,200', p(2200, 'included')],
    ['税込 ¥2,200', p(2200, 'included')],
    ['(税込)1,100円', p(1100, 'included')],
    ['¥ 27,800 (税込) 送料込み', p(27800, 'included')],
    ['最安価格(税込)：54,790円', p(54790, 'included')],
    ['¥2,000(税抜)', p(2000, 'excluded')],
    // Ranges and from-prices (§1.3)
    ['1,280円〜', p(1280, 'unknown', true)],
    ['17,500円～(税込)', p(17500, 'included', true)],
    ['２９８０万円～３４８０万円', p(29800000, 'unknown', true)],
    ['2980~3480万円', p(29800000, 'unknown', true)],
    ['1,000円〜2,000円(税込)', p(1000, 'included', true)],
    ['1,000円から', p(1000, 'unknown', true)],
    // Not a price (§0 rule 3)
    ['オープン価格', p(null)],
    ['価格未定', p(null)],
    ['お問い合わせください', p(null)],
    ['価格はお問い合わせください', p(null)],
    ['SOLD OUT', p(null)],
    ['売り切れ', p(null)],
    ['85ポイント(1倍)', p(null)],
    ['780ポイント(1倍+9倍UP)', p(null)],
    ['2,520ポイント(20%ポイントバック)', p(null)],
    ['13,200ポイント（10%還元）', p(null)],
    ['25pt (1%)', p(null)],
    ['20PT', p(null)],
    ['300円OFFクーポンあり', p(null)],
    ['送料無料', p(null)],
    ['送料 550円', p(null)],
    ['送料：880円', p(null)],
    ['', p(null)],
    // Comparison prices (§0 rule 4)
    ['当店通常価格3,000円の品を1,980円', p(1980)],
    ['定価 3,000円 特価 1,980円', p(1980)],
    ['メーカー希望小売価格 50,000円 販売価格 30,556円(税抜)', p(30556, 'excluded')],
    ['参考価格: ￥1,980', p(1980)],
    ['通常価格 11,000円(税込) セール価格 9,900円(税込)', p(9900, 'included')],
    ['¥1,000 ¥800', p(800)],
  ])('%s', (input, expected) => {
    expect(parsePrice(input)).toEqual(expected);
  });

  it('ignores counts and dates next to a price', () => {
    expect(parsePrice('2023年 限定 ¥5,500')).toEqual(p(5500));
    expect(parsePrice('3点セット 1,500円(税込)')).toEqual(p(1500, 'included'));
  });
});

import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { entry, repeatedEntry, sheetHead, sheetTail, sheetXml, workbookEntries, zip } from '../testing/zip.ts';
import { type TableRow, UnreadableTable } from './table.ts';
import { readXlsx, xlsxLimits } from './xlsx-reader.ts';

/**
 * The bounded XLSX reader: what Excel (and our export, through exceljs)
 * writes reads back cell for cell; workbooks built to exhaust the server are
 * refused as they are read.
 */

async function rowsOf(bytes: Buffer, limits = xlsxLimits): Promise<TableRow[]> {
  const rows: TableRow[] = [];
  for await (const row of readXlsx(bytes, limits)) rows.push(row);
  return rows;
}

async function refusalOf(bytes: Buffer, limits = xlsxLimits): Promise<UnreadableTable> {
  const error = await rowsOf(bytes, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UnreadableTable)) throw new Error(`Expected a refusal, got ${String(error)}`);
  return error;
}

describe('readXlsx', () => {
  it('reads what exceljs writes: shared and rich text, numbers, booleans, formula results, dates, blank rows passed over', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('First');
    sheet.addRow(['Name', 'Amount', 'Active', 'Closed', 'Total', 'Site']);
    sheet.addRow([
      { richText: [{ text: 'Ac' }, { font: { bold: true }, text: 'me' }] },
      1500000.5,
      true,
      new Date(Date.UTC(2027, 2, 31)),
      { formula: 'B2*2', result: 3000001 },
      { text: 'Example', hyperlink: 'https://example.com' },
    ]);
    sheet.addRow([]);
    sheet.getCell('C4').value = false;
    sheet.getCell('A5').value = 'Name';
    workbook.addWorksheet('Second').addRow(['not read']);
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await rowsOf(bytes)).toEqual([
      { number: 1, cells: ['Name', 'Amount', 'Active', 'Closed', 'Total', 'Site'] },
      { number: 2, cells: ['Acme', 1500000.5, true, '2027-03-31', 3000001, 'Example'] },
      { number: 4, cells: [null, null, false] },
      { number: 5, cells: ['Name'] },
    ]);
  });

  it('reads inline strings, cells without references and error cells as empty', async () => {
    const sheet = await entry(
      'sheet',
      sheetXml(
        '<row><c t="inlineStr"><is><t xml:space="preserve"> Globex </t></is></c><c t="e"><v>#N/A</v></c><c><v>42</v></c></row>' +
          '<row r="7"><c r="B7" t="str"><f>A1</f><v>from a formula</v></c></row>',
      ),
    );
    expect(await rowsOf(zip(await workbookEntries(sheet)))).toEqual([
      { number: 1, cells: [' Globex ', null, 42] },
      { number: 7, cells: [null, 'from a formula'] },
    ]);
  });

  it('refuses what is not a workbook, and a zip of 10,000 entries before reading any', async () => {
    expect((await refusalOf(Buffer.from('not a workbook'))).message).toBe('This is not an Excel workbook (XLSX)');
    const tiny = await entry('x', '');
    const many = zip(Array.from({ length: 10_000 }, (_, i) => ({ ...tiny, name: `x/${i}` })));
    const refused = await refusalOf(many);
    expect(refused.message).toContain('10,000 entries');
    expect(refused.tooLarge).toBe(false);
  });

  it('refuses a sheet of a million rows at the 20,001st, a sheet that inflates like a bomb, and one past the total', async () => {
    const rows = await repeatedEntry(
      'sheet',
      [Buffer.from(sheetHead), Buffer.from('<row><c><v>1</v></c></row>'), Buffer.from(sheetTail)],
      1_000_000,
    );
    const tooManyRows = await refusalOf(zip(await workbookEntries(rows)));
    expect(tooManyRows.message).toBe('The file has more than 20,000 rows (blank rows count too)');
    expect(tooManyRows.tooLarge).toBe(true);

    // 300 MB of blank space between empty cells: no row, column or cell limit is reached first.
    const padding = `<c/>${' '.repeat(64 * 1024)}`;
    const blank = await repeatedEntry(
      'sheet',
      [Buffer.from(`${sheetHead}<row r="1">`), Buffer.from(padding), Buffer.from(`</row>${sheetTail}`)],
      Math.ceil((300 * 1024 * 1024) / padding.length),
    );
    const bomb = zip(await workbookEntries(blank));
    const tooDense = await refusalOf(bomb);
    expect(tooDense.message).toBe(
      'This workbook unzips to more than 100 times its size, which no spreadsheet does; it is refused as a zip bomb',
    );
    expect(tooDense.tooLarge).toBe(true);
    // The same without the ratio, against a total of 1 MB.
    const tooMuch = await refusalOf(bomb, {
      ...xlsxLimits,
      inflateRatio: Number.POSITIVE_INFINITY,
      inflatedBytes: 1024 * 1024,
    });
    expect(tooMuch.message).toBe(
      'This workbook holds more than 1 MB of data once unzipped; import its rows in smaller files',
    );
    expect(tooMuch.tooLarge).toBe(true);
  });

  it('refuses a text longer than a cell may be while it is still being read', async () => {
    const long = await repeatedEntry(
      'sheet',
      [
        Buffer.from(`${sheetHead}<row><c t="inlineStr"><is><t>`),
        Buffer.from('x'.repeat(1024)),
        Buffer.from(`</t></is></c></row>${sheetTail}`),
      ],
      50 * 1024,
    );
    const refused = await refusalOf(zip(await workbookEntries(long)));
    expect(refused.message).toBe("This workbook's sheet1.xml holds a text longer than 100,000 characters");
  });
});

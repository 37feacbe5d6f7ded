import { crc32, createDeflateRaw } from 'node:zlib';

/** One file of a zip: its bytes deflated, with the size and checksum they inflate back to. */
export interface ZipEntry {
  name: string;
  deflated: Buffer;
  size: number;
  crc: number;
}

/** An entry from text or bytes held in memory. */
export async function entry(name: string, content: string | Buffer): Promise<ZipEntry> {
  return repeatedEntry(name, [Buffer.from(content)]);
}

/**
 * An entry whose content is `parts` in turn, `middle` (the second part)
 * repeated `times` times: hundreds of megabytes deflate to a few hundred
 * kilobytes without ever being held whole.
 */
export async function repeatedEntry(name: string, parts: Buffer[], times = 1): Promise<ZipEntry> {
  const deflater = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflater.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => deflater.on('end', resolve).on('error', reject));
  let size = 0;
  let crc = 0;
  const write = async (chunk: Buffer) => {
    size += chunk.length;
    crc = crc32(chunk, crc);
    if (!deflater.write(chunk)) await new Promise((resolve) => deflater.once('drain', resolve));
  };
  const [first, middle, ...rest] = parts;
  if (first) await write(first);
  if (middle) {
    // Written a megabyte or so at a time: a million small writes would take the test most of a minute.
    const perWrite = Math.max(1, Math.floor((1024 * 1024) / middle.length));
    const block = Buffer.concat(Array.from({ length: Math.min(perWrite, times) }, () => middle));
    for (let left = times; left > 0; left -= perWrite) {
      await write(left >= perWrite ? block : Buffer.concat(Array.from({ length: left }, () => middle)));
    }
  }
  for (const part of rest) await write(part);
  deflater.end();
  await done;
  return { name, deflated: Buffer.concat(out), size, crc };
}

/** A zip archive of the entries (deflate, no zip64): local headers, data, central directory, end record. */
export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, deflated, size, crc } of entries) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(size >>> 0, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(deflated.length, 20);
    central.writeUInt32LE(size >>> 0, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, deflated);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** The parts of a minimal workbook whose first sheet holds `sheetXml`, plus any others given. */
export async function workbookEntries(sheet: ZipEntry, others: ZipEntry[] = []): Promise<ZipEntry[]> {
  const relationship = (id: string, type: string, target: string) =>
    `<Relationship Id="${id}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}" Target="${target}"/>`;
  const rels = (body: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${body}</Relationships>`;
  return [
    await entry('_rels/.rels', rels(relationship('rId1', 'officeDocument', 'xl/workbook.xml'))),
    await entry(
      'xl/workbook.xml',
      '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    await entry(
      'xl/_rels/workbook.xml.rels',
      rels(
        relationship('rId1', 'worksheet', 'worksheets/sheet1.xml') +
          relationship('rId2', 'sharedStrings', 'sharedStrings.xml'),
      ),
    ),
    { ...sheet, name: 'xl/worksheets/sheet1.xml' },
    ...others,
  ];
}

/** What a worksheet part's XML has before its rows. */
export const sheetHead =
  '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
/** What it has after them. */
export const sheetTail = '</sheetData></worksheet>';
/** A worksheet part's XML around its rows. */
export const sheetXml = (rows: string) => `${sheetHead}${rows}${sheetTail}`;

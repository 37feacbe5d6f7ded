import { defineEntity } from './entity.ts';

/** A public market index a fund is compared with (e.g. MSCI World total return), its levels uploaded by users. */
export const benchmarkIndexes = defineEntity({
  name: 'benchmarkIndexes',
  table: 'benchmark_indexes',
  kind: 'record',
  label: 'Benchmark index',
  labelPlural: 'Benchmark indexes',
  display: 'name',
  permissions: true,
  navigation: { path: '/benchmark-indexes', order: 78, records: { edit: 'modal', show: 'generic' } },
  seed: true,
  fields: {
    name: {
      type: 'text',
      label: 'Name',
      required: true,
      unique: true,
      searchable: true,
      sortable: true,
      filterable: true,
      maxLength: 200,
    },
    currency: { type: 'currency', label: 'Currency', filterable: true, sortable: true },
    source: {
      type: 'text',
      label: 'Source',
      filterable: true,
      sortable: true,
      maxLength: 200,
      help: 'Who publishes the levels, e.g. MSCI or S&P Dow Jones Indices',
    },
    notes: { type: 'longText', label: 'Notes', maxLength: 5000 },
  },
  relations: { levels: { kind: 'hasMany', to: 'indexLevels', foreignKey: 'indexId' } },
  list: { defaultShows: ['name', 'currency', 'source'], defaultSort: 'name' },
  dedupKeys: ['name'],
});

/**
 * One closing level of a benchmark index at a date. Imported from a provider's
 * CSV export with the generic import: columns Index (its name), Date and Level.
 */
export const indexLevels = defineEntity({
  name: 'indexLevels',
  table: 'index_levels',
  kind: 'record',
  label: 'Index level',
  labelPlural: 'Index levels',
  display: 'date',
  displayWithin: 'indexId',
  permissions: true,
  navigation: { path: '/index-levels', order: 79, sidebar: false, records: { edit: 'modal', show: 'generic' } },
  seed: true,
  fields: {
    indexId: {
      type: 'reference',
      to: 'benchmarkIndexes',
      label: 'Index',
      required: true,
      filterable: true,
      onDelete: 'cascade',
    },
    date: { type: 'date', label: 'Date', required: true, filterable: true, sortable: true },
    level: { type: 'decimal', label: 'Level', required: true, min: 0, filterable: true, sortable: true },
  },
  list: { defaultShows: ['indexId', 'date', 'level'], defaultSort: '-date' },
  uniques: [['indexId', 'date']],
  checks: [{ name: 'index_levels_level_positive', field: 'level', sql: 'level > 0', message: 'Must be above 0' }],
});

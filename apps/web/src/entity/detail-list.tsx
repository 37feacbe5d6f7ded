import { SimpleGrid, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Detail {
  /** The field's name, also `data-field` on its value. */
  name: string;
  label: string;
  value: ReactNode;
}

/** A record's fields as a definition list, in columns as wide as the page allows. */
export function DetailList({ details }: { details: Detail[] }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="md" component="dl" m={0}>
      {details.map(({ name, label, value }) => (
        <div key={name}>
          <Text component="dt" size="sm" c="dimmed">
            {label}
          </Text>
          <Text component="dd" m={0} data-field={name}>
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

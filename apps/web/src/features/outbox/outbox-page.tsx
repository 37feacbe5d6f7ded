import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { useListInfiniteQuery } from '../../entity/record-api.ts';
import { useFormat } from '../../i18n/format.ts';
import type { Row } from '../../store/resource-slices.ts';

/** A mail kept in the outbox (no SMTP server configured). */
interface OutboxMail extends Row {
  createdAt: string;
  to: string;
  subject: string;
  text: string;
}

/** The outbox area's list: the newest mails first (the outbox's default order), 50 a page. */
const outboxList = {
  resource: 'outbox',
  params: [
    ['select', 'createdAt,to,subject,text'],
    ['pageSize', '50'],
  ] as [string, string][],
};

/** The mail text with its web addresses as links (the links are what the reader came for). */
function MailText({ text }: { text: string }) {
  const parts: { at: number; text: string; link: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(/https?:\/\/\S+/g)) {
    if (match.index > at) parts.push({ at, text: text.slice(at, match.index), link: false });
    parts.push({ at: match.index, text: match[0], link: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ at, text: text.slice(at), link: false });
  return (
    <Text component="pre" size="sm" ff="inherit" style={{ whiteSpace: 'pre-wrap' }} m={0}>
      {parts.map((part) =>
        part.link ? (
          <Anchor key={part.at} href={part.text}>
            {part.text}
          </Anchor>
        ) : (
          <Fragment key={part.at}>{part.text}</Fragment>
        ),
      )}
    </Text>
  );
}

/** Mails the server kept because no SMTP server is configured (administrators only). */
export function OutboxPage() {
  const { t } = useTranslation(['auth', 'common']);
  const format = useFormat();
  const { data, error, isLoading, isFetching, hasNextPage, fetchNextPage } = useListInfiniteQuery(outboxList);
  const mails = (data?.pages.flatMap((page) => page.data) ?? []) as OutboxMail[];

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('outbox.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('outbox.intro')}
      </Text>
      {error ? (
        <Alert color="red" role="alert">
          {error.message}
        </Alert>
      ) : null}
      {isLoading ? <Loader size="sm" role="status" aria-label={t('common:list.loading')} /> : null}
      {data && mails.length === 0 ? <Text c="dimmed">{t('outbox.empty')}</Text> : null}
      {mails.map((mail) => (
        <Card key={mail.id} withBorder radius="md" component="article" aria-label={mail.subject} data-testid="mail">
          <Title order={2} size="h5">
            {mail.subject}
          </Title>
          <Group gap="md" mb="sm">
            <Text size="xs" c="dimmed">
              {t('outbox.to', { to: mail.to })}
            </Text>
            <Text size="xs" c="dimmed">
              {t('outbox.sent', { date: format.dateTime(mail.createdAt) })}
            </Text>
          </Group>
          <MailText text={mail.text} />
        </Card>
      ))}
      {hasNextPage ? (
        <Group justify="center">
          <Button variant="default" loading={isFetching} onClick={() => void fetchNextPage()}>
            {t('common:actions.loadMore')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

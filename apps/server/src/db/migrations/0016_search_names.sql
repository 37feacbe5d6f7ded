DROP INDEX "users_email_first_name_last_name_full_name_trgm_idx";--> statement-breakpoint
DROP INDEX "currencies_code_name_trgm_idx";--> statement-breakpoint
DROP INDEX "firms_name_domain_city_trgm_idx";--> statement-breakpoint
DROP INDEX "companies_name_legal_name_domain_city_trgm_idx";--> statement-breakpoint
DROP INDEX "contacts_full_name_email_city_trgm_idx";--> statement-breakpoint
DROP INDEX "investors_name_city_trgm_idx";--> statement-breakpoint
DROP INDEX "outbox_to_subject_trgm_idx";--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "users_email_first_name_last_name_trgm_idx" ON "users" USING gin ((coalesce("email", '') || chr(31) || coalesce("first_name", '') || chr(31) || coalesce("last_name", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "currencies_code_trgm_idx" ON "currencies" USING gin ("code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "currencies_name_trgm_idx" ON "currencies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "firms_name_trgm_idx" ON "firms" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "firms_domain_city_trgm_idx" ON "firms" USING gin ((coalesce("domain", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_name_trgm_idx" ON "companies" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_legal_name_domain_city_trgm_idx" ON "companies" USING gin ((coalesce("legal_name", '') || chr(31) || coalesce("domain", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_full_name_trgm_idx" ON "contacts" USING gin ("full_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_email_city_trgm_idx" ON "contacts" USING gin ((coalesce("email", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "investors_name_trgm_idx" ON "investors" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "investors_city_trgm_idx" ON "investors" USING gin ("city" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "outbox_subject_trgm_idx" ON "outbox" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "outbox_to_trgm_idx" ON "outbox" USING gin ("to" gin_trgm_ops);
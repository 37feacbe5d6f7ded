DROP INDEX "firms_name_domain_trgm_idx";--> statement-breakpoint
DROP INDEX "companies_name_legal_name_domain_trgm_idx";--> statement-breakpoint
DROP INDEX "contacts_full_name_email_trgm_idx";--> statement-breakpoint
DROP INDEX "investors_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "firms_name_domain_city_trgm_idx" ON "firms" USING gin ((coalesce("name", '') || chr(31) || coalesce("domain", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "companies_name_legal_name_domain_city_trgm_idx" ON "companies" USING gin ((coalesce("name", '') || chr(31) || coalesce("legal_name", '') || chr(31) || coalesce("domain", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "contacts_full_name_email_city_trgm_idx" ON "contacts" USING gin ((coalesce("full_name", '') || chr(31) || coalesce("email", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "investors_name_city_trgm_idx" ON "investors" USING gin ((coalesce("name", '') || chr(31) || coalesce("city", '')) gin_trgm_ops);
CREATE INDEX "roles_name_prefix_idx" ON "roles" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "users_full_name_prefix_idx" ON "users" USING btree (lower("full_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "custom_field_groups_name_prefix_idx" ON "custom_field_groups" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "entity_field_types_name_prefix_idx" ON "entity_field_types" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "currencies_code_prefix_idx" ON "currencies" USING btree (lower("code") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "countries_name_prefix_idx" ON "countries" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "states_name_prefix_idx" ON "states" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "firms_name_prefix_idx" ON "firms" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "funds_name_prefix_idx" ON "funds" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "companies_name_prefix_idx" ON "companies" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "contacts_full_name_prefix_idx" ON "contacts" USING btree (lower("full_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "deals_name_prefix_idx" ON "deals" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "investors_name_prefix_idx" ON "investors" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "benchmark_indexes_name_prefix_idx" ON "benchmark_indexes" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "files_name_prefix_idx" ON "files" USING btree (lower("name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "tasks_title_prefix_idx" ON "tasks" USING btree (lower("title") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "outbox_subject_prefix_idx" ON "outbox" USING btree (lower("subject") text_pattern_ops);
CREATE TABLE "duplicate_dismissals" (
	"entity" text NOT NULL,
	"low_id" bigint NOT NULL,
	"high_id" bigint NOT NULL,
	"dismissed_by_id" bigint,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "duplicate_dismissals_entity_low_id_high_id_pk" PRIMARY KEY("entity","low_id","high_id"),
	CONSTRAINT "duplicate_dismissals_order" CHECK ("duplicate_dismissals"."low_id" < "duplicate_dismissals"."high_id")
);
--> statement-breakpoint
ALTER TABLE "duplicate_dismissals" ADD CONSTRAINT "duplicate_dismissals_dismissed_by_id_users_id_fk" FOREIGN KEY ("dismissed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
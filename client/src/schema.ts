/**
 * Generated from docs/openapi.json by `npm run client:types` (openapi-typescript). Do not edit:
 * change the route table, regenerate the document (`npm run openapi`), then these types.
 */

export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description This OpenAPI 3.1 document. Public: no credentials, no rate limit.
         */
        get: operations["openapi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Exchange the apiToken for an access token (client credentials)
         * @description Exchange the apiToken for an access token (client credentials). `Authorization: Basic <apiToken>`; the only route that takes the apiToken. A 503 means nothing was written; a 504 that the outcome is unknown.
         */
        get: operations["oauthToken"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/event/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the change feed: every change of the account, oldest first, from a cursor or an instant
         * @description Read the change feed: every change of the account, oldest first, from a cursor or an instant. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["eventList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search tickets, each as its detail (with view=summary, without the conversation)
         * @description List or search tickets, each as its detail (with view=summary, without the conversation). 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find tickets by their words and fields (the query language: docs/search.md), each as its detail with highlights
         * @description Find tickets by their words and fields (the query language: docs/search.md), each as its detail with highlights. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket with its documents and its most recent replies and notes
         * @description Read one ticket with its documents and its most recent replies and notes. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/documents": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's own documents (those of attachedDocuments)
         * @description Page through a ticket's own documents (those of attachedDocuments). 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketDocuments"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's replies, oldest first
         * @description Page through a ticket's replies, oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketReplies"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's notes, oldest first
         * @description Page through a ticket's notes, oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketNotes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a ticket's history: every change, who made it, what it changed; oldest first
         * @description Page through a ticket's history: every change, who made it, what it changed; oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Open a ticket
         * @description Open a ticket. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket (merge); replies and documents sent are added
         * @description Change a ticket (merge); replies and documents sent are added. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket: to the trash, where it can be restored until it is purged
         * @description Delete a ticket: to the trash, where it can be restored until it is purged. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/trash/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the tickets in the trash, most recently deleted first
         * @description List the tickets in the trash, most recently deleted first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketTrashList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/restore/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Restore a ticket from the trash, as it was deleted
         * @description Restore a ticket from the trash, as it was deleted. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketRestore"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/purge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a ticket in the trash for good, now (its replies, notes and files follow)
         * @description Remove a ticket in the trash for good, now (its replies, notes and files follow). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketPurge"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/merge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Merge tickets into this one: their conversations read as part of its own (undo: unmerge)
         * @description Merge tickets into this one: their conversations read as part of its own (undo: unmerge). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketMerge"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/unmerge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Undo the merge of this ticket (within 30 days): both tickets back as they were
         * @description Undo the merge of this ticket (within 30 days): both tickets back as they were. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketUnmerge"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/reply/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add a reply
         * @description Add a reply. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketReply"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/addNote/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add a note
         * @description Add a note. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketAddNote"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many tickets in one call: up to 100 inserts, updates, deletes, replies and notes, each run as its own route would and answered with its own outcome
         * @description Change many tickets in one call: up to 100 inserts, updates, deletes, replies and notes, each run as its own route would and answered with its own outcome. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        post: operations["ticketBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/{id}/attachment/{documentId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download an attached document (302 to a short-lived address)
         * @description Download an attached document (302 to a short-lived address). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticket/attachment/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Get a presigned address to upload a file too big for a JSON body
         * @description Get a presigned address to upload a file too big for a JSON body. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new resource and its address in `Location`.
         */
        post: operations["ticketAttachmentUpload"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API reference: this document rendered as a page, with a getting-started walk-through
         * @description API reference: this document rendered as a page, with a getting-started walk-through. Public: no credentials, no rate limit.
         */
        get: operations["docsPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/redoc.standalone.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API reference's renderer (Redoc's standalone script, cached for a year)
         * @description The API reference's renderer (Redoc's standalone script, cached for a year). Public: no credentials, no rate limit.
         */
        get: operations["docsRenderer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search customers
         * @description List or search customers. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one customer
         * @description Read one customer. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a customer
         * @description Create a customer. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["customerInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a customer (merge: only the fields sent)
         * @description Change a customer (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["customerUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a customer
         * @description Delete a customer. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["customerDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/bulk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change many customers in one call: up to 100 inserts, updates and deletes, each run as its own route would and answered with its own outcome
         * @description Change many customers in one call: up to 100 inserts, updates and deletes, each run as its own route would and answered with its own outcome. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        post: operations["customerBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/photo/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a customer's photo (its bytes with their media type)
         * @description Read a customer's photo (its bytes with their media type). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerPhoto"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Find customers by their words (the query language: docs/search.md), each with highlights
         * @description Find customers by their words (the query language: docs/search.md), each with highlights. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerSearch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a customer's history: every change, who made it, what it changed; oldest first
         * @description Page through a customer's history: every change, who made it, what it changed; oldest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/export/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an export job: its state and, once done, the document's short-lived download address
         * @description Read an export job: its state and, once done, the document's short-lived download address. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerExportStatus"];
        put?: never;
        /**
         * Export everything of a customer (record, tickets with their conversations, history, files) as one JSON document: a job
         * @description Export everything of a customer (record, tickets with their conversations, history, files) as one JSON document: a job. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["customerExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/customer/erase/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an erasure job: its state and, once done, its receipt (what was changed, per kind)
         * @description Read an erasure job: its state and, once done, its receipt (what was changed, per kind). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["customerEraseStatus"];
        put?: never;
        /**
         * Erase a customer's personal data everywhere (their tickets deleted or anonymised; `dryRun` only counts): a job
         * @description Erase a customer's personal data everywhere (their tickets deleted or anonymised; `dryRun` only counts): a job. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["customerErase"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search agents
         * @description List or search agents. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["agentList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one agent
         * @description Read one agent. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["agentDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an agent
         * @description Create an agent. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["agentInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change an agent (merge: only the fields sent)
         * @description Change an agent (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["agentUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/agent/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an agent
         * @description Delete an agent. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["agentDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search ticket types
         * @description List or search ticket types. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketTypeList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket type
         * @description Read one ticket type. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketTypeDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a ticket type
         * @description Create a ticket type. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketTypeInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket type (merge: only the fields sent)
         * @description Change a ticket type (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketTypeUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketType/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket type
         * @description Delete a ticket type. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketTypeDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search ticket areas
         * @description List or search ticket areas. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketAreaList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket area
         * @description Read one ticket area. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketAreaDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a ticket area
         * @description Create a ticket area. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketAreaInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket area (merge: only the fields sent)
         * @description Change a ticket area (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketAreaUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketArea/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket area
         * @description Delete a ticket area. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketAreaDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search ticket groups
         * @description List or search ticket groups. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketGroupList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one ticket group
         * @description Read one ticket group. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["ticketGroupDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a ticket group
         * @description Create a ticket group. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["ticketGroupInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a ticket group (merge: only the fields sent)
         * @description Change a ticket group (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["ticketGroupUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ticketGroup/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a ticket group
         * @description Delete a ticket group. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["ticketGroupDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/list": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List or search webhook subscriptions
         * @description List or search webhook subscriptions. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["webhookList"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one webhook subscription
         * @description Read one webhook subscription. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["webhookDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/insert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create a webhook subscription
         * @description Create a webhook subscription. Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new record’s `id`, its address in `Location` and its version in `ETag`. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown.
         */
        post: operations["webhookInsert"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/update/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a webhook subscription (merge: only the fields sent)
         * @description Change a webhook subscription (merge: only the fields sent). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). The answer’s `ETag` is the new version when it is known exactly (see the header). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["webhookUpdate"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/delete/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Delete a webhook subscription. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. `If-Match` with an ETag from a read applies the write only to that version (else 412, nothing changed). A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        delete: operations["webhookDelete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through a webhook subscription's delivery attempts (30 days), newest first
         * @description Page through a webhook subscription's delivery attempts (30 days), newest first. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["webhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Begin importing a help desk: a job, with a presigned address to upload its NDJSON file to (docs/import.md)
         * @description Begin importing a help desk: a job, with a presigned address to upload its NDJSON file to (docs/import.md). Needs `Authorization: Bearer <access_token>` and `clientId`. Answers 201 with the new resource and its address in `Location`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        post: operations["importCreate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an import job: its state, counts per kind, progress and estimate (while created, a fresh upload address)
         * @description Read an import job: its state, counts per kind, progress and estimate (while created, a fresh upload address). Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["importDetail"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Start an import job once its file is uploaded (safe to repeat: a running job goes on)
         * @description Start an import job once its file is uploaded (safe to repeat: a running job goes on). Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["importStart"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Cancel an import job: no further line is applied; what it wrote stays
         * @description Cancel an import job: no further line is applied; what it wrote stays. Needs `Authorization: Bearer <access_token>` and `clientId`. With an `Idempotency-Key`, a retry is answered with the first answer (`Idempotent-Replayed: true`) and never applied twice. A 503 means nothing was written; a 504 that the outcome is unknown: send it again with the same `Idempotency-Key`.
         */
        put: operations["importCancel"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/import/{id}/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Page through an import job's failed lines, in line order, each with its problem
         * @description Page through an import job's failed lines, in line order, each with its problem. 25 records a page (fewer when they would not fit in one response). Follow `nextQuery` / `previousQuery` to page at constant cost; `?page=n` works too. At most one search field per request; an unknown parameter is a 400. Needs `Authorization: Bearer <access_token>` and `clientId`.
         */
        get: operations["importErrors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Labels: {
            en: string;
            it: string;
            es: string;
            fr: string;
        };
        Status: {
            /** @enum {string} */
            status: "opened" | "on hold" | "solved" | "closed" | "onhold";
            labels: components["schemas"]["Labels"];
        };
        Source: {
            /** @enum {string} */
            source: "web" | "email" | "phone" | "chat" | "api" | "twitter" | "facebook" | "linkedin" | "googleplus" | "youtube";
            labels: components["schemas"]["Labels"];
        };
        FieldError: {
            /** @description The field or parameter, dotted (`attachedDocuments.1.documentBlob`). */
            path: string;
            message: string;
        };
        Ticket: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
            /** @description The most recent replies that fit, oldest first. */
            replies: components["schemas"]["Reply"][];
            /** @description The ticket's own documents that fit, in the order added. */
            attachedDocuments: components["schemas"]["Document"][];
            /** @description The most recent notes that fit, oldest first. */
            ticketNotes: components["schemas"]["Note"][];
            /** @description Some documents were left out (page through `documentsUrl`). */
            documentsTruncated: boolean;
            /** Format: uri */
            documentsUrl: string;
            /** @description Some replies were left out (page through `repliesUrl`). */
            repliesTruncated: boolean;
            /** Format: uri */
            repliesUrl: string;
            /** @description Some notes were left out (page through `notesUrl`). */
            notesTruncated: boolean;
            /** Format: uri */
            notesUrl: string;
        };
        Customer: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description Full name. */
            name: string;
            birthDate: number | null;
            email: string;
            phoneNumber: string | null;
            faxNumber: string | null;
            mobileNumber: string | null;
            address: string | null;
            city: string | null;
            province: string | null;
            state: string | null;
            postalNumber: string | null;
            skypeAddress: string | null;
            msnAddress: string | null;
            gtalkAddress: string | null;
            twitterAccountUrl: string | null;
            facebookAccountUrl: string | null;
            linkedinAccountUrl: string | null;
            googleAccountUrl: string | null;
            youtubeAccountUrl: string | null;
            registrationChannel: string | null;
            /** @description Preferred customer. */
            topClient: boolean;
            /**
             * Format: uri
             * @description Where the photo is read (`GET /customer/photo/{id}`; 404 without a photo).
             */
            profilePhotoUrl: string;
            /** @description Write-only (upload a photo with it); always null on read. */
            profilePhotoBlob: null;
            signature: string | null;
            memo: string | null;
            website: string | null;
            company: string | null;
            /**
             * @description Interface and e-mail language.
             * @enum {string}
             */
            language: "en" | "it" | "es" | "fr";
            account: {
                username: string | null;
            } | null;
            insertByAgentId: string | null;
            customFields: {
                [key: string]: string | number | boolean | null;
            } | null;
        };
        Agent: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            name: string;
            email: string;
            phoneNumber: string | null;
            /**
             * @description Interface and e-mail language.
             * @enum {string}
             */
            language: "en" | "it" | "es" | "fr";
            signature: string | null;
        };
        TicketType: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description The ticket type's name. */
            type: string;
            labels: components["schemas"]["Labels"];
        };
        TicketArea: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description The ticket area's name. */
            area: string;
            labels: components["schemas"]["Labels"];
        };
        TicketGroup: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description The ticket group's name. */
            group: string;
            labels: components["schemas"]["Labels"];
        };
        Reply: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            text: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            replyDate: number;
            /** @description The agent who wrote it; null for the customer's replies (or a deleted agent). */
            replyFromOperator: components["schemas"]["Agent"] | null;
            attachedDocuments: components["schemas"]["Document"][];
        };
        Note: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            note: string;
            /** @description An agent; null when none was named, or the agent has been deleted since. */
            insertBy: components["schemas"]["Agent"] | null;
            /** @description An agent; null when none was named, or the agent has been deleted since. */
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            date: number;
            remindMe: number | null;
        };
        Document: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            documentName: string;
            /** @description Media type of the file. */
            documentType: string;
            /** @description Bytes. */
            size: number;
            /** @description `sha256:<hex>` of the bytes, or `etag:<S3 ETag>` for presigned uploads. */
            checksum: string;
            /**
             * Format: uri
             * @description Answers 302 to a short-lived address that downloads the bytes.
             */
            downloadUrl: string;
        };
        Webhook: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /**
             * Format: uri
             * @description Where deliveries are POSTed.
             */
            url: string;
            /** @description Event types delivered; empty: all of them. */
            types: ("customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed")[];
            /** @description Deliveries run. */
            enabled: boolean;
            description: string | null;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            createdAt: number;
            /** @description Why deliveries stopped (persistent failure); null while enabled or when disabled by an update. */
            disabledReason: string | null;
        };
        WebhookDelivery: {
            /** @description The event delivered (the `webhook-id` header; GET /event/list shows it). */
            eventId: string;
            /**
             * @description Its type.
             * @enum {string}
             */
            eventType: "customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed";
            /** @description The event's attempt number: 1, then 2… for its retries. */
            attempt: number;
            /** @description When the attempt was made. */
            at: number;
            /** @description The receiver answered 2xx. */
            ok: boolean;
            /** @description The receiver's HTTP status; null when it did not answer. */
            status: number | null;
            /** @description Why the attempt failed; null when it did not. */
            error: string | null;
            /** @description The first 200 characters of what the receiver answered; null when nothing. */
            response: string | null;
            /** @description How long the attempt took (ms). */
            ms: number;
        };
        /** @description A deleted ticket in the trash: its summary as it was deleted (restore puts it back as it was, replies, notes and documents included), `deletedAt` and `purgesAt`. */
        TrashedTicket: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
            /** @description When it was deleted (ms since the Unix epoch). */
            deletedAt: number;
            /** @description When the trash lets it go (ms since the Unix epoch): it is purged for good then, at the latest within two days after. */
            purgesAt: number;
        };
        /** @description One change of a ticket or a customer, as it was committed (written in its own transaction: never missing, never twice). Kept two years unless the operator set otherwise. */
        HistoryEntry: {
            /** @description The entry's id (entries sort by it: oldest first). */
            id: string;
            /** @description When the change was committed (ms since the Unix epoch): the time of its events too. */
            at: number;
            /**
             * @description What happened. `status_changed`: an update that changed the status (and with it the closed date) alone; `merged`/`unmerged`: on both tickets.
             * @enum {string}
             */
            kind: "created" | "updated" | "status_changed" | "replied" | "note_added" | "merged" | "unmerged" | "trashed" | "restored" | "erased";
            /** @description Who made the change. */
            actor: {
                /** @description The API client that made the change. */
                clientId: string;
                /** @description The agent the request named as its author (a reply's `replyFromOperator`, a note's `insertBy`); null when it named none. */
                agentId: string | null;
                /** @description The request (its `x-request-id` answer header); null for changes no API request made (the trash's expiry, an import). */
                requestId: string | null;
                /** @description The import job that made the change (`GET /import/{id}`); null otherwise. */
                importId: string | null;
            };
            /** @description For updates, merges and unmerges: each field that changed, with its stored value before and after (references as ids; null: absent). Empty for other kinds. */
            changes: {
                field: string;
                before: unknown;
                after: unknown;
            }[];
            /** @description Replies the change added (ids). */
            replies: string[];
            /** @description Notes the change added (ids). */
            notes: string[];
            /** @description Documents the change added (ids). */
            documents: string[];
        };
        /** @description An export of one customer's data. */
        ExportJob: {
            /** @description The job's id: read its state at `statusUrl`. */
            id: string;
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            customerId: string;
            /**
             * @description `pending` until the worker finished it (seconds, usually); `done`; an export `expired` once its links stopped working (ask for a new one) or `gone` when the customer was erased or deleted before it was made.
             * @enum {string}
             */
            status: "pending" | "done" | "expired" | "gone";
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            requestedAt: number;
            /** @description When it finished (ms); null while pending. */
            finishedAt: number | null;
            /**
             * Format: uri
             * @description Where the job's state is read.
             */
            statusUrl: string;
            /** @description Once done: a short-lived address of the export, one JSON document (`customer`, `history`, `tickets` with each ticket's replies, notes, documents and history). It and every file link inside it work until `expiresAt`; null otherwise. */
            downloadUrl: string | null;
            /** @description Until when `downloadUrl` and the links in the document work (ms); null while pending. */
            expiresAt: number | null;
        };
        /** @description An erasure of one customer's personal data. */
        ErasureJob: {
            /** @description The job's id: read its state at `statusUrl`. */
            id: string;
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            customerId: string;
            /**
             * @description `pending` until the worker reached every copy; then `done`.
             * @enum {string}
             */
            status: "pending" | "done";
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            requestedAt: number;
            /** @description When it finished (ms); null while pending. */
            finishedAt: number | null;
            /**
             * Format: uri
             * @description Where the job's state is read.
             */
            statusUrl: string;
            /**
             * @description What happens to the tickets the customer opened.
             * @enum {string}
             */
            mode: "anonymise" | "delete";
            /** @description Only counts what an erasure would change: nothing was or will be changed. */
            dryRun: boolean;
            /** @description Once done: what was changed per kind (for a dry run, what would be); null while pending. */
            receipt: {
                /** @description The customer record (1). */
                customers: number;
                /** @description Photo objects removed. */
                photos: number;
                /** @description Tickets deleted (`delete`) or anonymised (`anonymise`). */
                tickets: number;
                /** @description Replies deleted with their tickets, or replaced/redacted. */
                replies: number;
                /** @description Notes deleted with their tickets, or redacted. */
                notes: number;
                /** @description Documents deleted (with their tickets, or the customer's own), or renamed. */
                documents: number;
                /** @description History entries deleted (the customer's) or redacted (their tickets'). */
                historyEntries: number;
                /** @description Change-feed events whose bodies were emptied or anonymised. */
                events: number;
                /** @description Webhook delivery attempts of those events whose receiver's answer excerpt was removed. */
                deliveries: number;
                /** @description Export documents of the customer removed. */
                exports: number;
            } | null;
        };
        /** @description An import of a help desk from an NDJSON file (docs/import.md). */
        ImportJob: {
            /** @description The job's id. */
            id: string;
            /**
             * @description `created`: waiting for its file (PUT it to `uploadUrl`, then start it); `running`; `completed`: every line read; `cancelled`; `failed`: its file could not be read (`reason`).
             * @enum {string}
             */
            status: "created" | "running" | "completed" | "cancelled" | "failed";
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            createdAt: number;
            /** @description When it was started (ms); null before. */
            startedAt: number | null;
            /** @description When it completed, was cancelled or failed (ms); null before. */
            finishedAt: number | null;
            /** @description The file's size in bytes, once started. */
            size: number | null;
            /** @description Bytes of the file done: every line before them applied and counted. */
            bytesRead: number;
            /** @description Lines of the file done. */
            linesRead: number;
            /** @description Per kind of line (`unreadable`: lines that were not JSON, or too long, whose kind is unknown). */
            counts: {
                /** @description Lines of one kind. */
                agent: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                customer: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticketType: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticketArea: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticketGroup: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                ticket: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
                /** @description Lines of one kind. */
                unreadable: {
                    /** @description Lines read: created + skipped + failed. */
                    read: number;
                    /** @description Records this job created. */
                    created: number;
                    /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                    skipped: number;
                    /** @description Lines refused, each with its problem at `errorsUrl`. */
                    failed: number;
                };
            };
            /** @description Every kind added up. */
            totals: {
                /** @description Lines read: created + skipped + failed. */
                read: number;
                /** @description Records this job created. */
                created: number;
                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                skipped: number;
                /** @description Lines refused, each with its problem at `errorsUrl`. */
                failed: number;
            };
            /** @description Share of the file done (bytes), 0 to 1. */
            progress: number;
            /** @description Estimated seconds until it completes, at the pace so far; null before there is a pace or once it ended. */
            etaSeconds: number | null;
            /** @description Why it failed; null otherwise. */
            reason: string | null;
            /** @description While `created`: a presigned address to PUT the file to (NDJSON, `application/x-ndjson`), valid `expiresIn` seconds; each read of the job answers a fresh one. Null once started. */
            uploadUrl: string | null;
            /** @description Seconds `uploadUrl` stays valid; null when there is none. */
            expiresIn: number | null;
            /** @description The largest file accepted (bytes). */
            maxBytes: number;
            /**
             * Format: uri
             * @description Where the job's state is read.
             */
            statusUrl: string;
            /**
             * Format: uri
             * @description Where its failed lines are paged, in line order.
             */
            errorsUrl: string;
        };
        ImportError: {
            /** @description Its line number in the file, from 1. */
            line: number;
            /** @description Its `kind`; null when it could not be read. */
            kind: ("agent" | "customer" | "ticketType" | "ticketArea" | "ticketGroup" | "ticket") | null;
            /** @description Its `externalId`; null when it could not be read. */
            externalId: string | null;
            /** @description Why it failed: the problem its API request would have answered. */
            problem: {
                /** @description Stable URN to branch on (docs/errors.md). */
                type: string;
                title: string;
                status: number;
                detail: string;
                errors?: components["schemas"]["FieldError"][];
            };
        };
        TicketMatch: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
            /** @description The most recent replies that fit, oldest first. */
            replies: components["schemas"]["Reply"][];
            /** @description The ticket's own documents that fit, in the order added. */
            attachedDocuments: components["schemas"]["Document"][];
            /** @description The most recent notes that fit, oldest first. */
            ticketNotes: components["schemas"]["Note"][];
            /** @description Some documents were left out (page through `documentsUrl`). */
            documentsTruncated: boolean;
            /** Format: uri */
            documentsUrl: string;
            /** @description Some replies were left out (page through `repliesUrl`). */
            repliesTruncated: boolean;
            /** Format: uri */
            repliesUrl: string;
            /** @description Some notes were left out (page through `notesUrl`). */
            notesTruncated: boolean;
            /** Format: uri */
            notesUrl: string;
            /** @description Where the words of the query matched: field (`subject`, `description`, `replies`, `notes`, `documents`, `customer`; for customers `name`, `email`, `details`) → up to 3 snippets, the matched words between `<em>` and `</em>`, the rest HTML-escaped. Empty for a query of filters alone. */
            highlights: {
                [key: string]: string[];
            };
        };
        CustomerMatch: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description Full name. */
            name: string;
            birthDate: number | null;
            email: string;
            phoneNumber: string | null;
            faxNumber: string | null;
            mobileNumber: string | null;
            address: string | null;
            city: string | null;
            province: string | null;
            state: string | null;
            postalNumber: string | null;
            skypeAddress: string | null;
            msnAddress: string | null;
            gtalkAddress: string | null;
            twitterAccountUrl: string | null;
            facebookAccountUrl: string | null;
            linkedinAccountUrl: string | null;
            googleAccountUrl: string | null;
            youtubeAccountUrl: string | null;
            registrationChannel: string | null;
            /** @description Preferred customer. */
            topClient: boolean;
            /**
             * Format: uri
             * @description Where the photo is read (`GET /customer/photo/{id}`; 404 without a photo).
             */
            profilePhotoUrl: string;
            /** @description Write-only (upload a photo with it); always null on read. */
            profilePhotoBlob: null;
            signature: string | null;
            memo: string | null;
            website: string | null;
            company: string | null;
            /**
             * @description Interface and e-mail language.
             * @enum {string}
             */
            language: "en" | "it" | "es" | "fr";
            account: {
                username: string | null;
            } | null;
            insertByAgentId: string | null;
            customFields: {
                [key: string]: string | number | boolean | null;
            } | null;
            /** @description Where the words of the query matched: field (`subject`, `description`, `replies`, `notes`, `documents`, `customer`; for customers `name`, `email`, `details`) → up to 3 snippets, the matched words between `<em>` and `</em>`, the rest HTML-escaped. Empty for a query of filters alone. */
            highlights: {
                [key: string]: string[];
            };
        };
        /** @description A ticket without its conversation and files: every field but `replies`, `ticketNotes` and `attachedDocuments`. The records of `GET /ticket/list?view=summary`, and the tickets of the change feed. */
        TicketSummary: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description `<sequence>/<year>`, per account and year. */
            number: string;
            subject: string;
            description: string;
            /** @description Milliseconds since the Unix epoch (negative before 1970). */
            insertDate: number;
            /** @description Date of the last edit, reply or status change. */
            managedDate: number;
            closedDate: number | null;
            priority: 0 | 1;
            assignedTo: components["schemas"]["Agent"] | null;
            /** @description Agents in copy (an entry is null only if that agent was removed from the ticket and deleted while it was being read). */
            cc: (components["schemas"]["Agent"] | null)[];
            /** @description The customer who opened the ticket; null when that customer was erased (`POST /customer/erase/{id}`, the ticket kept anonymised), or if the ticket and then the customer were deleted while it was being read. */
            openedBy: components["schemas"]["Customer"] | null;
            numberOfReplies: number;
            tags: {
                tag: string;
            }[];
            status: components["schemas"]["Status"];
            type: components["schemas"]["TicketType"] | null;
            area: components["schemas"]["TicketArea"] | null;
            group: components["schemas"]["TicketGroup"] | null;
            memo: string | null;
            source: components["schemas"]["Source"];
            customFields: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId: string | null;
            tweetType: ("mention" | "direct message") | null;
            facebookId: string | null;
            facebookType: ("post" | "private message") | null;
            linkedinId: string | null;
            linkedinType: string | null;
            googlePlusId: string | null;
            googlePlusType: string | null;
            youtubeId: string | null;
            youtubeType: string | null;
            messageUniqueId: string | null;
            customPortalId: string | null;
            /** @description An agent has to reply. */
            toReply: boolean;
            /** @description The customer has to reply. */
            toReplyCustomer: boolean;
            /** @description The record's key in the integrator's own system (searchable). */
            externalId1: string | null;
            /** @description The ticket this one was merged into (`PUT /ticket/merge/{id}`): it is closed and takes no replies, notes or changes until unmerged. Null if none. */
            mergedInto: string | null;
            /** @description The tickets merged into this one, oldest merge first: their replies, notes and documents read as part of this ticket's conversation. */
            mergedTickets: string[];
        };
        OpenApiDocument: {
            openapi: string;
            info: {
                title: string;
                version: string;
            } & {
                [key: string]: unknown;
            };
            paths: {
                [key: string]: unknown;
            };
            components: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Token: {
            access_token: string;
            /** @constant */
            token_type: "bearer";
            /** @description Seconds the token is valid for. */
            expires_in: number;
            scope: string;
        };
        EventFeed: {
            event: {
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description The feed is read forward only. */
                previousQuery: null;
                /**
                 * Format: uri
                 * @description Where the next events will be (with a signed cursor); poll it when a page is short.
                 */
                nextQuery: string;
                records: {
                    /** @description Unique per event. */
                    id: string;
                    /**
                     * @description `<resource>.<what happened>`.
                     * @enum {string}
                     */
                    type: "customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed";
                    /** @description Milliseconds since the Unix epoch (negative before 1970). */
                    occurredAt: number;
                    /** @description The event's place in the account's feed: what the write that made it answered as `Helpdesk-Position`, for `Helpdesk-Min-Position` on a search. */
                    position: string;
                    /** @description Opaque id generated by the service (24 lower-case hex characters). */
                    resourceId: string;
                    /** @description The import job whose write this is (`GET /import/{id}`); null for every other change. Webhooks are not sent these events: only the job's `import.completed`. */
                    importId: string | null;
                    /** @description The resource after the change (an import job for `import.completed`); null when it was deleted, or erased (`customer.erased`, and every earlier event about the erased customer or, by the erasure, their tickets). */
                    resource: (components["schemas"]["TicketSummary"] | components["schemas"]["Reply"] | components["schemas"]["Note"] | components["schemas"]["Document"] | components["schemas"]["Customer"] | components["schemas"]["Agent"] | components["schemas"]["TicketType"] | components["schemas"]["TicketArea"] | components["schemas"]["TicketGroup"] | {
                        /** @description The job's id. */
                        id: string;
                        /**
                         * @description `created`: waiting for its file (PUT it to `uploadUrl`, then start it); `running`; `completed`: every line read; `cancelled`; `failed`: its file could not be read (`reason`).
                         * @enum {string}
                         */
                        status: "created" | "running" | "completed" | "cancelled" | "failed";
                        /** @description Milliseconds since the Unix epoch (negative before 1970). */
                        createdAt: number;
                        /** @description When it was started (ms); null before. */
                        startedAt: number | null;
                        /** @description When it completed, was cancelled or failed (ms); null before. */
                        finishedAt: number | null;
                        /** @description The file's size in bytes, once started. */
                        size: number | null;
                        /** @description Bytes of the file done: every line before them applied and counted. */
                        bytesRead: number;
                        /** @description Lines of the file done. */
                        linesRead: number;
                        /** @description Per kind of line (`unreadable`: lines that were not JSON, or too long, whose kind is unknown). */
                        counts: {
                            /** @description Lines of one kind. */
                            agent: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            customer: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticketType: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticketArea: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticketGroup: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            ticket: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                            /** @description Lines of one kind. */
                            unreadable: {
                                /** @description Lines read: created + skipped + failed. */
                                read: number;
                                /** @description Records this job created. */
                                created: number;
                                /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                                skipped: number;
                                /** @description Lines refused, each with its problem at `errorsUrl`. */
                                failed: number;
                            };
                        };
                        /** @description Every kind added up. */
                        totals: {
                            /** @description Lines read: created + skipped + failed. */
                            read: number;
                            /** @description Records this job created. */
                            created: number;
                            /** @description Lines whose record was here already: imported before (its `externalId`), or a customer, agent or lookup with the same e-mail or name, which the line was linked to. */
                            skipped: number;
                            /** @description Lines refused, each with its problem at `errorsUrl`. */
                            failed: number;
                        };
                    }) | null;
                }[];
            };
        };
        TicketPage: {
            ticket: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: (components["schemas"]["Ticket"] | components["schemas"]["TicketSummary"])[];
            };
        };
        TicketMatchPage: {
            ticket: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketMatch"][];
            };
        };
        DocumentPage: {
            document: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Document"][];
            };
        };
        ReplyPage: {
            reply: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Reply"][];
            };
        };
        NotePage: {
            note: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Note"][];
            };
        };
        HistoryEntryPage: {
            history: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["HistoryEntry"][];
            };
        };
        Id: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
        };
        TrashedTicketPage: {
            ticket: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TrashedTicket"][];
            };
        };
        BulkResults: {
            results: {
                /** @description What its own route would have answered: 201 or 200, or the status of its problem. */
                status: number;
                /** @description Its route's body: the record's id, or the problem. */
                body: components["schemas"]["Id"] | {
                    /** @description Stable URN to branch on (docs/errors.md). */
                    type: string;
                    title: string;
                    status: number;
                    detail: string;
                    errors?: components["schemas"]["FieldError"][];
                    /** @description The path of the route the operation ran as. */
                    instance: string;
                };
                /**
                 * @description Its Idempotency-Key found an earlier answer: nothing was written now.
                 * @constant
                 */
                replayed?: true;
                /** @description Its change's place in the change feed (what its route answers as `Helpdesk-Position`); the call's `Helpdesk-Position` is the latest of them. */
                position?: string;
            }[];
        };
        Redirect: {
            /**
             * Format: uri
             * @description The short-lived download address (as in `Location`).
             */
            url: string;
            /** @description Seconds the address is valid for. */
            expiresIn: number;
        };
        Upload: {
            /** @description Send it as `uploadId` in `attachedDocuments`. */
            uploadId: string;
            /**
             * Format: uri
             * @description PUT the bytes here.
             */
            uploadUrl: string;
            /** @constant */
            method: "PUT";
            /** @description Headers the PUT must carry. */
            headers: {
                "content-type": string;
            };
            /** @description Seconds the address is valid for. */
            expiresIn: number;
            maxBytes: number;
        };
        CustomerPage: {
            customer: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Customer"][];
            };
        };
        CustomerMatchPage: {
            customer: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["CustomerMatch"][];
            };
        };
        AgentPage: {
            agent: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Agent"][];
            };
        };
        TicketTypePage: {
            type: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketType"][];
            };
        };
        TicketAreaPage: {
            area: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketArea"][];
            };
        };
        TicketGroupPage: {
            group: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["TicketGroup"][];
            };
        };
        WebhookPage: {
            webhook: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["Webhook"][];
            };
        };
        WebhookSecret: {
            /** @description Opaque id generated by the service (24 lower-case hex characters). */
            id: string;
            /** @description Signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes); verify deliveries with it. Returned only here: keep it. */
            secret: string;
        };
        WebhookDeliveryPage: {
            delivery: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["WebhookDelivery"][];
            };
        };
        ImportErrorPage: {
            error: {
                /** @description Exact number of records of the list or search. */
                totalRecords: number;
                /** @description The most a page carries (25). */
                recordsPerPage: number;
                /** @description Address of the previous page; null on the first. */
                previousQuery: string | null;
                /** @description Address of the next page (with a signed cursor); null on the last. */
                nextQuery: string | null;
                records: components["schemas"]["ImportError"][];
            };
        };
        Problem400: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:validation-error" | "urn:helpdesk:problem:malformed-json" | "urn:helpdesk:problem:bad-request" | "urn:helpdesk:problem:invalid-reference" | "urn:helpdesk:problem:line-too-long";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 400;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem401: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:unauthorized";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 401;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem404: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:not-found" | "urn:helpdesk:problem:no-route";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 404;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem409: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:duplicate-email" | "urn:helpdesk:problem:duplicate-type" | "urn:helpdesk:problem:duplicate-area" | "urn:helpdesk:problem:duplicate-group" | "urn:helpdesk:problem:in-use" | "urn:helpdesk:problem:reference-gone" | "urn:helpdesk:problem:ticket-merged" | "urn:helpdesk:problem:already-merged" | "urn:helpdesk:problem:merge-chain" | "urn:helpdesk:problem:merge-limit" | "urn:helpdesk:problem:merge-target-gone" | "urn:helpdesk:problem:unmerge-expired" | "urn:helpdesk:problem:request-in-progress" | "urn:helpdesk:problem:webhook-limit" | "urn:helpdesk:problem:import-file-missing" | "urn:helpdesk:problem:import-finished" | "urn:helpdesk:problem:import-moved";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 409;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem410: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:cursor-expired";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 410;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem412: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:precondition-failed";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 412;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem413: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:content-too-large" | "urn:helpdesk:problem:too-many-changes";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 413;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem415: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:unsupported-media-type";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 415;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem422: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:idempotency-key-reused";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 422;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem429: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:rate-limited";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 429;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem500: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:internal-error";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 500;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem503: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:contended" | "urn:helpdesk:problem:index-behind" | "urn:helpdesk:problem:unavailable";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 503;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Problem504: {
            /**
             * @description Stable URN to branch on (docs/errors.md).
             * @enum {string}
             */
            type: "urn:helpdesk:problem:outcome-unknown";
            /** @description Short human-readable summary of the status. */
            title: string;
            /** @constant */
            status: 504;
            /** @description What went wrong with this request, for a human. */
            detail: string;
            /** @description Each invalid field or parameter (validation problems). */
            errors?: components["schemas"]["FieldError"][];
            /** @description The path of the request. */
            instance: string;
        };
        Reference: {
            id: string;
        };
        DocumentInput: {
            documentName: string;
            documentType: string;
            documentBlob?: string;
            documentBase64?: string;
            uploadId?: string;
        };
        ReplyInput: {
            text: string;
            /** @description Milliseconds since the epoch, as an integer or a string of digits. */
            replyDate?: number | string;
            replyFromOperator?: components["schemas"]["Reference"] | null;
            attachedDocuments?: components["schemas"]["DocumentInput"][];
        };
        NoteInput: {
            note: string;
            insertBy?: string | null;
            assignedTo?: string | null;
            /** @description Milliseconds since the epoch, as an integer or a string of digits. */
            date?: number | string;
            remindMe?: (number | string) | null;
        };
        TicketInsertBody: {
            subject: string;
            description: string;
            openedBy: components["schemas"]["Reference"];
            type?: components["schemas"]["Reference"] | null;
            area?: components["schemas"]["Reference"] | null;
            group?: components["schemas"]["Reference"] | null;
            assignedTo?: components["schemas"]["Reference"] | null;
            cc?: components["schemas"]["Reference"][];
            priority?: 0 | 1;
            /** @description One of opened, on hold, solved, closed (`onhold` reads as `on hold`), case-insensitive: "opened" or {"status": "opened"}. */
            status?: string | {
                status: string;
            };
            /** @description One of web, email, phone, chat, api, twitter, facebook, linkedin, googleplus, youtube, case-insensitive: "web" or {"source": "web"}. */
            source?: string | {
                source: string;
            };
            tags?: (string | {
                tag: string;
            })[];
            memo?: string | null;
            customFields?: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId?: string | null;
            tweetType?: ("mention" | "direct message") | null;
            facebookId?: string | null;
            facebookType?: ("post" | "private message") | null;
            linkedinId?: string | null;
            linkedinType?: string | null;
            googlePlusId?: string | null;
            googlePlusType?: string | null;
            youtubeId?: string | null;
            youtubeType?: string | null;
            messageUniqueId?: string | null;
            customPortalId?: string | null;
            externalId1?: string | null;
            toReply?: boolean;
            toReplyCustomer?: boolean;
            replies?: components["schemas"]["ReplyInput"][];
            attachedDocuments?: components["schemas"]["DocumentInput"][];
        };
        TicketUpdateBody: {
            subject?: string;
            description?: string;
            openedBy?: components["schemas"]["Reference"];
            type?: components["schemas"]["Reference"] | null;
            area?: components["schemas"]["Reference"] | null;
            group?: components["schemas"]["Reference"] | null;
            assignedTo?: components["schemas"]["Reference"] | null;
            cc?: components["schemas"]["Reference"][];
            priority?: 0 | 1;
            /** @description One of opened, on hold, solved, closed (`onhold` reads as `on hold`), case-insensitive: "opened" or {"status": "opened"}. */
            status?: string | {
                status: string;
            };
            /** @description One of web, email, phone, chat, api, twitter, facebook, linkedin, googleplus, youtube, case-insensitive: "web" or {"source": "web"}. */
            source?: string | {
                source: string;
            };
            tags?: (string | {
                tag: string;
            })[];
            memo?: string | null;
            customFields?: {
                name: string;
                value: string | number | boolean | null;
            }[];
            tweetId?: string | null;
            tweetType?: ("mention" | "direct message") | null;
            facebookId?: string | null;
            facebookType?: ("post" | "private message") | null;
            linkedinId?: string | null;
            linkedinType?: string | null;
            googlePlusId?: string | null;
            googlePlusType?: string | null;
            youtubeId?: string | null;
            youtubeType?: string | null;
            messageUniqueId?: string | null;
            customPortalId?: string | null;
            externalId1?: string | null;
            toReply?: boolean;
            toReplyCustomer?: boolean;
            replies?: components["schemas"]["ReplyInput"][];
            attachedDocuments?: components["schemas"]["DocumentInput"][];
        };
        TicketMergeBody: {
            sources: string[];
        };
        TicketBulkBody: {
            operations: ({
                /** @constant */
                op: "insert";
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                body?: components["schemas"]["TicketInsertBody"];
            } | {
                /** @constant */
                op: "update";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["TicketUpdateBody"];
            } | {
                /** @constant */
                op: "delete";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
            } | {
                /** @constant */
                op: "reply";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["ReplyInput"];
            } | {
                /** @constant */
                op: "addNote";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["NoteInput"];
            })[];
        };
        TicketAttachmentUploadBody: {
            documentName: string;
            documentType: string;
        };
        CustomerInsertBody: {
            name: string;
            /** Format: email */
            email: string;
            birthDate?: number | null;
            phoneNumber?: string | null;
            faxNumber?: string | null;
            mobileNumber?: string | null;
            address?: string | null;
            city?: string | null;
            province?: string | null;
            state?: string | null;
            postalNumber?: string | null;
            skypeAddress?: string | null;
            msnAddress?: string | null;
            gtalkAddress?: string | null;
            twitterAccountUrl?: string | null;
            facebookAccountUrl?: string | null;
            linkedinAccountUrl?: string | null;
            googleAccountUrl?: string | null;
            youtubeAccountUrl?: string | null;
            registrationChannel?: string | null;
            topClient?: boolean;
            profilePhotoBlob?: string | null;
            signature?: string | null;
            memo?: string | null;
            website?: string | null;
            company?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            account?: {
                username?: string | null;
                password?: string;
            } | null;
            insertByAgentId?: string | null;
            customFields?: {
                [key: string]: string | number | boolean | null;
            } | null;
        };
        CustomerUpdateBody: {
            name?: string;
            /** Format: email */
            email?: string;
            birthDate?: number | null;
            phoneNumber?: string | null;
            faxNumber?: string | null;
            mobileNumber?: string | null;
            address?: string | null;
            city?: string | null;
            province?: string | null;
            state?: string | null;
            postalNumber?: string | null;
            skypeAddress?: string | null;
            msnAddress?: string | null;
            gtalkAddress?: string | null;
            twitterAccountUrl?: string | null;
            facebookAccountUrl?: string | null;
            linkedinAccountUrl?: string | null;
            googleAccountUrl?: string | null;
            youtubeAccountUrl?: string | null;
            registrationChannel?: string | null;
            topClient?: boolean;
            profilePhotoBlob?: string | null;
            signature?: string | null;
            memo?: string | null;
            website?: string | null;
            company?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            account?: {
                username?: string | null;
                password?: string;
            } | null;
            insertByAgentId?: string | null;
            customFields?: {
                [key: string]: string | number | boolean | null;
            } | null;
        };
        CustomerBulkBody: {
            operations: ({
                /** @constant */
                op: "insert";
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                body?: components["schemas"]["CustomerInsertBody"];
            } | {
                /** @constant */
                op: "update";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
                body?: components["schemas"]["CustomerUpdateBody"];
            } | {
                /** @constant */
                op: "delete";
                /** @description The record it changes. */
                id: string;
                /** @description This operation's own Idempotency-Key: a retry with it replays, never applies twice. */
                key?: string;
                /** @description The record's ETag it expects (If-Match): 412 otherwise. */
                ifMatch?: string;
            })[];
        };
        CustomerEraseBody: {
            /**
             * @default anonymise
             * @enum {string}
             */
            mode: "anonymise" | "delete";
            /** @default false */
            dryRun: boolean;
        };
        AgentInsertBody: {
            name: string;
            /** Format: email */
            email: string;
            phoneNumber?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            signature?: string | null;
        };
        AgentUpdateBody: {
            name?: string;
            /** Format: email */
            email?: string;
            phoneNumber?: string | null;
            /** @enum {string} */
            language?: "en" | "it" | "es" | "fr";
            signature?: string | null;
        };
        TicketTypeInsertBody: {
            type: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketTypeUpdateBody: {
            type?: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketAreaInsertBody: {
            area: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketAreaUpdateBody: {
            area?: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketGroupInsertBody: {
            group: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        TicketGroupUpdateBody: {
            group?: string;
            labels?: {
                en?: string;
                it?: string;
                es?: string;
                fr?: string;
            };
        };
        WebhookInsertBody: {
            /** Format: uri */
            url: string;
            /** @description Event types delivered (those of GET /event/list); empty or absent: all of them. */
            types?: ("customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed")[];
            /** @description Deliveries run (default true); `true` re-enables one disabled after failures. */
            enabled?: boolean;
            description?: string | null;
        };
        WebhookUpdateBody: {
            /** Format: uri */
            url?: string;
            /** @description Event types delivered (those of GET /event/list); empty or absent: all of them. */
            types?: ("customer.created" | "customer.updated" | "customer.deleted" | "agent.created" | "agent.updated" | "agent.deleted" | "ticket_type.created" | "ticket_type.updated" | "ticket_type.deleted" | "ticket_area.created" | "ticket_area.updated" | "ticket_area.deleted" | "ticket_group.created" | "ticket_group.updated" | "ticket_group.deleted" | "ticket.created" | "ticket.updated" | "ticket.deleted" | "ticket.replied" | "ticket.note_added" | "ticket.attachment_added" | "ticket.restored" | "ticket.purged" | "ticket.merged" | "ticket.unmerged" | "customer.erased" | "import.completed")[];
            /** @description Deliveries run (default true); `true` re-enables one disabled after failures. */
            enabled?: boolean;
            description?: string | null;
        };
    };
    responses: {
        /** @description Bad Request: The request is invalid: malformed JSON, an invalid body (`errors` lists each field), a bad query or path parameter, a reference to a record that does not exist. */
        Problem400: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem400"];
            };
        };
        /** @description Unauthorized: Missing, invalid, expired or revoked credentials; the same answer whatever was wrong. */
        Problem401: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem401"];
            };
        };
        /** @description Not Found: No such record in this account (an unknown, foreign or malformed id). */
        Problem404: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem404"];
            };
        };
        /** @description Conflict: The write contradicts the data (a duplicate e-mail or name, a record still in use), or a request with the same Idempotency-Key is still running. */
        Problem409: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem409"];
            };
        };
        /** @description 410: see docs/errors.md */
        Problem410: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem410"];
            };
        };
        /** @description Precondition Failed: `If-Match` names no version the record has; nothing changed. */
        Problem412: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem412"];
            };
        };
        /** @description Content Too Large: The body, a file or the write is over a limit; nothing written. */
        Problem413: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem413"];
            };
        };
        /** @description Unsupported Media Type: The body is not `application/json`. */
        Problem415: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem415"];
            };
        };
        /** @description Unprocessable Content: The Idempotency-Key was already used for a different request. */
        Problem422: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem422"];
            };
        };
        /** @description Too Many Requests: Over a rate limit (requests, failed authentications, token exchanges); retry after `Retry-After`. */
        Problem429: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem429"];
            };
        };
        /** @description Internal Server Error: A bug; the `x-request-id` finds it in the logs. */
        Problem500: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem500"];
            };
        };
        /** @description Service Unavailable: The store is unavailable or the record too busy; nothing was written. Retry after `Retry-After`. */
        Problem503: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem503"];
            };
        };
        /** @description Gateway Timeout: A write was sent and the store did not answer in time: it may or may not have been applied. Retry with the same Idempotency-Key, or read the record. */
        Problem504: {
            headers: {
                "x-request-id": components["headers"]["XRequestId"];
                /** @description Requests this client may send in the current minute's window. Present once the client is authenticated and admitted. */
                "RateLimit-Limit"?: number;
                /** @description Requests left in the current window (this instance's view: exact with one instance). Present once the client is authenticated and admitted. */
                "RateLimit-Remaining"?: number;
                /** @description Seconds until the next window opens. Present once the client is authenticated and admitted. */
                "RateLimit-Reset"?: number;
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem504"];
            };
        };
    };
    parameters: {
        /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
        IdempotencyKey: string;
        /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
        IfMatch: string;
        /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
        HelpdeskCompat: "standard" | "deskero";
        /** @description Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed. */
        HelpdeskMinPosition: string;
    };
    requestBodies: never;
    headers: {
        /** @description Id of this request (API Gateway request id), also in the logs: quote it when reporting a problem. */
        XRequestId: string;
        /** @description Requests this client may send in the current minute's window. */
        RateLimitLimit: number;
        /** @description Requests left in the current window (this instance's view: exact with one instance). */
        RateLimitRemaining: number;
        /** @description Seconds until the next window opens. */
        RateLimitReset: number;
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
        /** @description The scheme to authenticate with: `Bearer realm="helpdesk"` (`Basic` on /oauth/token). */
        WWWAuthenticate: string;
        /** @description Strong entity-tag of the version read; send it back as `If-Match` to update or delete only that version. */
        ETag: string;
        /** @description The absolute address the created resource is read at (for an upload: the address to PUT the file to). */
        CreatedLocation: string;
        /** @description Strong entity-tag of the version the write created (`"1"`): send it as `If-Match` to update or delete only that version, without reading first. */
        CreatedETag: "\"1\"";
        /** @description Strong entity-tag of the version this write gave the record in the path (for a reply or note: the ticket), sent when the server knows it exactly: always after a merge or unmerge, and after an update, reply or note sent with `If-Match` (naming one version, for a reply or note, which does not read the ticket). Send it as the next write’s `If-Match` without reading first. An unconditional write has none: a concurrent change of other fields may land beside it, so its version is not known without a read. */
        WrittenETag: string;
        /** @description The short-lived download address. */
        Location: string;
        /** @description How long the answer may be kept. */
        CacheControl: string;
        /** @description The file's version (a hash of its bytes): send it back in `If-None-Match` for a 304. */
        FileETag: string;
        /** @description Always `nosniff`. */
        XContentTypeOptions: "nosniff";
        /** @description A stored file loads nothing, runs nothing and is framed nowhere, even opened as a page (docs/decisions.md, Customers). */
        FileContentSecurityPolicy: "default-src 'none'; frame-ancestors 'none'; sandbox";
        /** @description Other sites' pages cannot embed the file. */
        CrossOriginResourcePolicy: "same-origin";
        /** @description `inline`, the file's name quoted in ASCII (other characters as `_`) and exactly in `filename*` (RFC 6266, RFC 5987). */
        ContentDisposition: string;
        /** @description Always `no-referrer`. */
        ReferrerPolicy: string;
        /** @description The page's policy: its own origin only (docs/decisions.md, Docs). */
        ContentSecurityPolicy: string;
        /** @description What the answer varies by (`accept-encoding`). */
        Vary: string;
        /** @description `gzip` when the client accepts it. */
        ContentEncoding: "gzip";
        /** @description HTTP/1.0 `no-cache`, as RFC 6749 asks of token responses. */
        Pragma: "no-cache";
        /** @description Present (`true`) when this is the stored answer of an earlier request with the same Idempotency-Key. */
        IdempotentReplayed: "true";
        /** @description The change's place in the account's change feed (also each event's `position`): send it as `Helpdesk-Min-Position` to search once the change is indexed. Present when the write changed the account's data. */
        HelpdeskPosition: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    openapi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
            400: components["responses"]["Problem400"];
            500: components["responses"]["Problem500"];
        };
    };
    oauthToken: {
        parameters: {
            query: {
                /** @description Must be `client_credentials`. */
                grant_type: "client_credentials";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    Pragma: components["headers"]["Pragma"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    eventList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Events committed at or after this instant (milliseconds since the epoch); a `cursor` takes precedence. */
                since?: number;
                /** @description Only events of these types, comma-separated (e.g. `ticket.created,ticket.replied`). */
                type?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventFeed"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            410: components["responses"]["Problem410"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description What each record is: `detail` (the default) the ticket as `GET /ticket/{id}` answers it, conversation and files included (with its truncation flags); `summary` every field but `replies`, `ticketNotes` and `attachedDocuments`, at two DynamoDB requests a page. Page links keep it. */
                view?: "detail" | "summary";
                /** @description Exact-match search by `status` (one search field at a time; unknown parameters are a 400). */
                status?: "opened" | "on hold" | "solved" | "closed";
                /** @description Exact-match search by `priority` (one search field at a time; unknown parameters are a 400). */
                priority?: 0 | 1;
                /** @description Exact-match search by `openedBy._id` (one search field at a time; unknown parameters are a 400). */
                "openedBy._id"?: string;
                /** @description Exact-match search by `assignedTo._id` (one search field at a time; unknown parameters are a 400). */
                "assignedTo._id"?: string;
                /** @description Exact-match search by `type._id` (one search field at a time; unknown parameters are a 400). */
                "type._id"?: string;
                /** @description Exact-match search by `area._id` (one search field at a time; unknown parameters are a 400). */
                "area._id"?: string;
                /** @description Exact-match search by `group._id` (one search field at a time; unknown parameters are a 400). */
                "group._id"?: string;
                /** @description Exact-match search by `externalId1` (one search field at a time; unknown parameters are a 400). */
                externalId1?: string;
                /** @description Exact-match search by `tags` (one search field at a time; unknown parameters are a 400). */
                tags?: string;
                /** @description Tickets changed at or after this instant (milliseconds since the epoch), most recently changed first: incremental sync. Not with another search field. */
                managedDate?: number;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketSearch: {
        parameters: {
            query: {
                /** @description Exact-match search by `query` (one search field at a time; unknown parameters are a 400). */
                query: string;
                /** @description Exact-match search by `sort` (one search field at a time; unknown parameters are a 400). */
                sort?: "relevance" | "created" | "updated";
                /** @description Exact-match search by `order` (one search field at a time; unknown parameters are a 400). */
                order?: "asc" | "desc";
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
                /** @description Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed. */
                "Helpdesk-Min-Position"?: components["parameters"]["HelpdeskMinPosition"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketMatchPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Ticket"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketDocuments: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DocumentPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketReplies: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ReplyPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketNotes: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotePage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketHistory: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryEntryPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTrashList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TrashedTicketPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketRestore: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketPurge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketMerge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketMergeBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketUnmerge: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketReply: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplyInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAddNote: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NoteInput"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketBulkBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResults"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAttachment: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
                /** @description Id of the document. */
                documentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Found */
            302: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["Location"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Redirect"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAttachmentUpload: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketAttachmentUploadBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Upload"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    docsPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The API reference page. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    "Content-Security-Policy": components["headers"]["ContentSecurityPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "text/html": string;
                };
            };
            400: components["responses"]["Problem400"];
            500: components["responses"]["Problem500"];
        };
    };
    docsRenderer: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The reference page's renderer. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
                    "Referrer-Policy": components["headers"]["ReferrerPolicy"];
                    ETag: components["headers"]["FileETag"];
                    Vary: components["headers"]["Vary"];
                    "Content-Encoding": components["headers"]["ContentEncoding"];
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": string;
                };
            };
            /** @description No content. */
            304: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    ETag: components["headers"]["FileETag"];
                    Vary: components["headers"]["Vary"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            500: components["responses"]["Problem500"];
        };
    };
    customerList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `email` (one search field at a time; unknown parameters are a 400). */
                email?: string;
                /** @description Exact-match search by `name` (one search field at a time; unknown parameters are a 400). */
                name?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Customer"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerBulk: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerBulkBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResults"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerPhoto: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The bytes, with their media type. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "Content-Disposition": components["headers"]["ContentDisposition"];
                    "X-Content-Type-Options": components["headers"]["XContentTypeOptions"];
                    "Content-Security-Policy": components["headers"]["FileContentSecurityPolicy"];
                    "Cross-Origin-Resource-Policy": components["headers"]["CrossOriginResourcePolicy"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": unknown;
                    "image/jpeg": unknown;
                    "image/gif": unknown;
                    "image/webp": unknown;
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerSearch: {
        parameters: {
            query: {
                /** @description Exact-match search by `query` (one search field at a time; unknown parameters are a 400). */
                query: string;
                /** @description Exact-match search by `sort` (one search field at a time; unknown parameters are a 400). */
                sort?: "relevance" | "created" | "updated";
                /** @description Exact-match search by `order` (one search field at a time; unknown parameters are a 400). */
                order?: "asc" | "desc";
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
                /** @description Read your writes: the `Helpdesk-Position` a write answered. The search waits (up to 5 s) until the index has applied that change and every earlier one of the account, then answers; past the wait, 503 `index-behind` with Retry-After. Without it, the search answers at once from what is indexed. */
                "Helpdesk-Min-Position"?: components["parameters"]["HelpdeskMinPosition"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CustomerMatchPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerHistory: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HistoryEntryPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerExportStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerExport: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            202: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    customerEraseStatus: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    customerErase: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CustomerEraseBody"];
            };
        };
        responses: {
            /** @description The job, every field present (null when not known yet). */
            202: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErasureJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    agentList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `email` (one search field at a time; unknown parameters are a 400). */
                email?: string;
                /** @description Exact-match search by `name` (one search field at a time; unknown parameters are a 400). */
                name?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AgentPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    agentDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Agent"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    agentInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    agentUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AgentUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    agentDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTypeList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `type` (one search field at a time; unknown parameters are a 400). */
                type?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketTypePage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketTypeDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketType"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketTypeInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketTypeInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTypeUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketTypeUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketTypeDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAreaList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `area` (one search field at a time; unknown parameters are a 400). */
                area?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketAreaPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAreaDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketArea"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketAreaInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketAreaInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAreaUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketAreaUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketAreaDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketGroupList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
                /** @description Exact-match search by `group` (one search field at a time; unknown parameters are a 400). */
                group?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketGroupPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketGroupDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TicketGroup"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    ticketGroupInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketGroupInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketGroupUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TicketGroupUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    ticketGroupDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookList: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    webhookDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The record, every field present (null or [] when empty). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    webhookInsert: {
        parameters: {
            query?: never;
            header?: {
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookInsertBody"];
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    ETag: components["headers"]["CreatedETag"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookUpdate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookUpdateBody"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    ETag: components["headers"]["WrittenETag"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            413: components["responses"]["Problem413"];
            415: components["responses"]["Problem415"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookDelete: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Change only if the record is at one of these versions (`"3"`, `"1", "7"`, `W/"3"` or `*`), from the `ETag` of a read; otherwise 412 and nothing changes. */
                "If-Match"?: components["parameters"]["IfMatch"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Id"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            412: components["responses"]["Problem412"];
            422: components["responses"]["Problem422"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    webhookDeliveries: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    importCreate: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            201: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Location: components["headers"]["CreatedLocation"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    importDetail: {
        parameters: {
            query?: never;
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
    importStart: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    importCancel: {
        parameters: {
            query?: never;
            header?: {
                /** @description Makes the write safe to retry: a retry with the same key and the same request (route, path id, body as JSON values) answers the first outcome with `Idempotent-Replayed: true`, never a second record or a second change; another body is a 422. Kept 24 h, per account. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job, every field present (null when not known yet). */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    "Idempotent-Replayed": components["headers"]["IdempotentReplayed"];
                    "Helpdesk-Position": components["headers"]["HelpdeskPosition"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportJob"];
                };
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            409: components["responses"]["Problem409"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
            504: components["responses"]["Problem504"];
        };
    };
    importErrors: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (default 1). A page past the end has no records. */
                page?: number;
                /** @description Opaque signed cursor from `nextQuery` / `previousQuery`; keep the other parameters as they are. */
                cursor?: string;
            };
            header?: {
                /** @description Compatibility profile of this request, overriding the client's: `standard`, or `deskero` (Deskero's observed behaviour: 204 for an empty list or an unknown id). */
                "Helpdesk-Compat"?: components["parameters"]["HelpdeskCompat"];
            };
            path: {
                /** @description Id of the record (an unknown or malformed one is a 404). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the list (or search), newest first unless said otherwise. */
            200: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImportErrorPage"];
                };
            };
            /** @description No content. */
            204: {
                headers: {
                    "x-request-id": components["headers"]["XRequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["Problem400"];
            401: components["responses"]["Problem401"];
            404: components["responses"]["Problem404"];
            429: components["responses"]["Problem429"];
            500: components["responses"]["Problem500"];
            503: components["responses"]["Problem503"];
        };
    };
}

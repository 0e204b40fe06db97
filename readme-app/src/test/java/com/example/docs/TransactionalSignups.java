package com.example.docs;

import com.example.readme.WelcomeEmail;
import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

@Service
class TransactionalSignups {

	private final JdbcClient jdbc;

	private final EchoMqOperations echoMq;

	TransactionalSignups(JdbcClient jdbc, EchoMqOperations echoMq) {
		this.jdbc = jdbc;
		this.echoMq = echoMq;
	}

	@Transactional
	void signUp(String email, String name) {
		this.jdbc.sql("insert into users (email, name) values (?, ?)").params(email, name).update();
		// the id now, the write at commit; nothing if the transaction rolls back
		this.echoMq.enqueue("welcome-email", new WelcomeEmail(email, name));
		// written now, whatever becomes of the transaction
		this.echoMq.enqueue("audit", email, EnqueueOptions.defaults().withAfterCommit(false));
	}

}

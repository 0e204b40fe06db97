package com.example.docs;

import jakarta.servlet.DispatcherType;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

@Configuration(proxyBeanMethods = false)
class DashboardSecurity {

	@Bean
	SecurityFilterChain security(HttpSecurity http) throws Exception {
		http.authorizeHttpRequests((requests) -> requests.requestMatchers("/echomq/**")
			.hasAnyRole("ECHOMQ_ADMIN", "ECHOMQ_VIEWER")
			.dispatcherTypeMatchers(DispatcherType.ERROR)
			.permitAll()
			.anyRequest()
			.authenticated()).formLogin(Customizer.withDefaults());
		return http.build();
	}

}
